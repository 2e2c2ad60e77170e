import { AmountError, toMinor } from '../../../contract/money.ts'
import type { OrderType, QuoteQuery } from '../../../contract/orders.ts'
import { type QuoteField, quoteRejected } from './errors.ts'
import { type AmountField, BANK_RAIL_CURRENCIES } from './pricing.ts'
import type { CurrencyRow } from './quote-repository.ts'

/** The query parameters naming a target; each order type takes some of them (contract table). */
const TARGET_FIELDS = ['destination_id', 'address', 'to_wallet_uuid', 'fiat_account_id'] as const
const TAKES: Record<OrderType, readonly (typeof TARGET_FIELDS)[number][]> = {
  DEPOSIT_FIAT_SEPA: [],
  DEPOSIT_FIAT_SWIFT: [],
  WITHDRAWAL_FIAT_SEPA: ['destination_id'],
  WITHDRAWAL_CRYPTO: ['destination_id', 'address'],
  EXCHANGE_CRYPTO_INTERNAL: ['to_wallet_uuid'],
  TRANSFER_CARD_PREPAID: ['fiat_account_id'],
  TRANSFER_CARD_SUBACCOUNT: ['fiat_account_id'],
  TRANSFER_CARD_WHOLESALE: ['fiat_account_id'],
}

/** Every target field given is one the order type takes. */
export function checkTargetFields(query: QuoteQuery) {
  for (const field of TARGET_FIELDS) {
    if (query[field] !== undefined && !TAKES[query.order_type].includes(field)) {
      throw invalid(field, `is not used by ${query.order_type}`)
    }
  }
}

/** As the schema's own 422 words it: the detail names the field, errors[] says what is wrong. */
export const invalid = (field: QuoteField, reason: string) =>
  quoteRejected('VALIDATION_FAILED', field, `/querystring/${field} ${reason}`, { reason })

/** Exactly one of amount_from and amount_to. */
export function givenAmount(query: QuoteQuery): AmountField {
  if (query.amount_from !== undefined && query.amount_to !== undefined) {
    throw invalid('amount_to', 'cannot be given with amount_from: give one of them')
  }
  if (query.amount_from === undefined && query.amount_to === undefined) {
    throw invalid('amount_from', 'is required (or give amount_to)')
  }
  return query.amount_from !== undefined ? 'amount_from' : 'amount_to'
}

export function parseAmount(text: string, currency: CurrencyRow, field: AmountField): bigint {
  try {
    return toMinor(text, currency.decimals)
  } catch (error) {
    if (error instanceof AmountError) {
      throw invalid(field, `has more than ${currency.decimals} decimal places (${currency.code})`)
    }
    throw error
  }
}

export function requireBankRail(type: OrderType, from: CurrencyRow) {
  const codes = BANK_RAIL_CURRENCIES[type]!
  if (from.type !== 'fiat' || !codes.includes(from.code)) {
    throw quoteRejected(
      'CURRENCY_NOT_ALLOWED',
      'from_uuid',
      `${type} takes ${codes.join(', ')}, not ${from.code}.`,
    )
  }
}

/** A currency as a detail names it: its code, and its chain when it has one. */
export const currencyName = (currency: CurrencyRow) =>
  currency.chain ? `${currency.code} on ${currency.chain}` : currency.code
