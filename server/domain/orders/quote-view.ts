import { fromMinor } from '../../../contract/money.ts'
import type { FeeLine, MoneySide, Quote } from '../../../contract/orders.ts'
import type { StoredFee } from '../../infra/db/schema.ts'
import type { CurrencyRow } from './quote-repository.ts'
import type { FirmQuote } from './quote-token.ts'

/** A currency as a quote shows it. */
export type QuoteCurrency = Pick<CurrencyRow, 'uuid' | 'code' | 'chain' | 'decimals'>

export function moneySide(currency: QuoteCurrency, minor: bigint | string): MoneySide {
  return {
    currency_uuid: currency.uuid,
    currency: currency.code,
    chain: currency.chain,
    decimals: currency.decimals,
    amount: fromMinor(BigInt(minor), currency.decimals),
  }
}

/** Stored fee lines (quote or order) as the contract's, in the from currency. */
export function feeLines(fees: readonly StoredFee[], from: QuoteCurrency): FeeLine[] {
  return fees.map((fee) => ({
    kind: fee.kind,
    currency_uuid: from.uuid,
    currency: from.code,
    amount: fromMinor(BigInt(fee.amount_minor), from.decimals),
    percent: fee.percent,
  }))
}

/** A quote as the contract's Quote; `currencies` holds at least its two currencies. */
export function toQuote(row: FirmQuote, currencies: ReadonlyMap<string, QuoteCurrency>): Quote {
  const from = currencies.get(row.from_currency_uuid)
  const to = currencies.get(row.to_currency_uuid)
  if (!from || !to)
    throw new Error(`quote of ${row.created_at.toISOString()}: its currencies were not given`)
  return {
    quote_id: row.id,
    order_type: row.order_type,
    wallet_uuid: row.wallet_id,
    from: moneySide(from, row.amount_from_minor),
    to: moneySide(to, row.amount_to_minor),
    rate: row.rate,
    fees: feeLines(row.fees, from),
    total: fromMinor(BigInt(row.total_minor), from.decimals),
    target: row.target,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  }
}
