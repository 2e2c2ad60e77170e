import type { AutoTopUpBody } from '../../../contract/auto-top-up.ts'
import { AmountError, toMinor } from '../../../contract/money.ts'
import { isWholesaleSource, type PricedCurrency } from '../orders/pricing.ts'
import type { BodyFault } from './errors.ts'

/** What the account's currency and the body's wallet and currency turned out to be. */
export interface SettingFacts {
  account: { currencyUuid: string; currency: string; decimals: number }
  /** The body's from_wallet_uuid is one of the person's wallets. */
  walletIsOwn: boolean
  /** The body's from_currency in the catalogue, when it is there. */
  from: PricedCurrency | undefined
}

/** The settings as stored: minor units of the account's currency. */
export interface Settings {
  enabled: boolean
  belowMinor: bigint | null
  topUpToMinor: bigint | null
  dailyCapMinor: bigint | null
  fromWalletId: string | null
  fromCurrencyUuid: string | null
}

const AMOUNT_FIELDS = ['below', 'top_up_to', 'daily_cap'] as const

/**
 * The body as settings, or every fault at once. On, each field is needed;
 * off, the ones given are checked the same (the app keeps them for the next
 * time it is turned on). `from_currency` is the account's own currency, or
 * USDT/USDC (a token), converted at the quote's rate when it runs.
 */
export function settingsOf(
  body: AutoTopUpBody,
  facts: SettingFacts,
): { settings: Settings } | { faults: BodyFault[] } {
  const faults: BodyFault[] = []
  const fault = (field: string, message: string) =>
    faults.push({ field: `/body/${field}`, message })
  const minor: Partial<Record<(typeof AMOUNT_FIELDS)[number], bigint>> = {}
  for (const field of AMOUNT_FIELDS) {
    const given = body[field]
    if (given === undefined) {
      if (body.enabled) fault(field, 'is needed while auto top-up is on.')
      continue
    }
    try {
      const value = toMinor(given, facts.account.decimals)
      if (value <= 0n) fault(field, `must be more than 0 ${facts.account.currency}.`)
      else minor[field] = value
    } catch (error) {
      if (!(error instanceof AmountError)) throw error
      fault(field, `${facts.account.currency} has ${facts.account.decimals} decimal places.`)
    }
  }
  if (
    minor.below !== undefined &&
    minor.top_up_to !== undefined &&
    minor.top_up_to <= minor.below
  ) {
    fault('top_up_to', 'must be more than `below`: the top-up brings the account back above it.')
  }
  if (body.from_wallet_uuid === undefined) {
    if (body.enabled) fault('from_wallet_uuid', 'is needed while auto top-up is on.')
  } else if (!facts.walletIsOwn) {
    fault('from_wallet_uuid', 'No such wallet of yours.')
  }
  const accountCurrency = facts.account.currency
  if (body.from_currency === undefined) {
    if (body.enabled) fault('from_currency', 'is needed while auto top-up is on.')
  } else if (!facts.from) {
    fault('from_currency', 'No such currency.')
  } else if (!paysFor(facts.from, facts.account.currencyUuid)) {
    fault('from_currency', `must be ${accountCurrency} (the account’s currency), USDT or USDC.`)
  }
  if (faults.length > 0) return { faults }
  return {
    settings: {
      enabled: body.enabled,
      belowMinor: minor.below ?? null,
      topUpToMinor: minor.top_up_to ?? null,
      dailyCapMinor: minor.daily_cap ?? null,
      fromWalletId: body.from_wallet_uuid ?? null,
      fromCurrencyUuid: body.from_currency?.toLowerCase() ?? null,
    },
  }
}

/** May a top-up of an account in `accountCurrencyUuid` be paid in `from`? */
export const paysFor = (from: PricedCurrency, accountCurrencyUuid: string) =>
  from.uuid === accountCurrencyUuid || isWholesaleSource(from)

/** The order that tops up: the account's own currency moves as is, a stablecoin at a rate. */
export const topUpOrderType = (fromCurrencyUuid: string, accountCurrencyUuid: string) =>
  fromCurrencyUuid === accountCurrencyUuid ? 'TRANSFER_CARD_SUBACCOUNT' : 'TRANSFER_CARD_WHOLESALE'

export type TopUpDecision =
  /** The account is at or above top_up_to already, counting top-ups on their way. */
  | { kind: 'NOTHING_TO_DO' }
  /** The day's cap is used up: nothing may arrive today. */
  | { kind: 'CAP_REACHED' }
  | { kind: 'TOP_UP'; amountMinor: bigint }

/**
 * How much to bring: back to `topUpTo`, less what earlier top-ups still on
 * their way will bring, clipped to what is left of today's cap.
 */
export function topUpDecision(input: {
  balanceMinor: bigint
  onTheWayMinor: bigint
  topUpToMinor: bigint
  dailyCapMinor: bigint
  usedTodayMinor: bigint
}): TopUpDecision {
  const needed = input.topUpToMinor - input.balanceMinor - input.onTheWayMinor
  if (needed <= 0n) return { kind: 'NOTHING_TO_DO' }
  const left = input.dailyCapMinor - input.usedTodayMinor
  if (left <= 0n) return { kind: 'CAP_REACHED' }
  return { kind: 'TOP_UP', amountMinor: needed < left ? needed : left }
}
