/**
 * Pure rules of the card processor: whether an authorisation is approved,
 * the UTC windows its limits sum over, the ledger legs of each step, and the
 * CSV line of a card transaction. No IO here.
 */
import type {
  CardLimitKind,
  CardTransaction,
  DeclineReason,
} from '../../../contract/card-transactions.ts'
import type { CardStatus } from '../../../contract/cards.ts'
import type { FiatAccountStatus } from '../../../contract/fiat-accounts.ts'
import { type ActivationTries, activationRetryAfter } from '../cards/rules.ts'
import { csvRecord } from '../csv.ts'
import type { Posting } from '../ledger/rules.ts'
import type { ControlDecline } from './controls.ts'

/**
 * The 3-D Secure step of an authorisation: no code sent, or the code sent
 * was the card's current one-time code (PASSED) or not (FAILED).
 */
export type ThreeDsResult = 'NOT_ASKED' | 'PASSED' | 'FAILED'

export interface AuthorizationFacts {
  threeDs: ThreeDsResult
  cardStatus: CardStatus
  accountStatus: FiatAccountStatus
  /** The card's controls' answer (controls.ts controlDecline): undefined when they let it through. */
  controls: ControlDecline | undefined
  /** Minor units, in the account's currency. */
  amount: bigint
  /** The account's spendable balance (its sub-account). */
  balance: bigint
  limits: { per_transaction: bigint; daily: bigint; monthly: bigint }
  /** Approved (not reversed) authorisations of the card this UTC day / month, before this one. */
  spentToday: bigint
  spentThisMonth: bigint
}

export type Decision =
  | { status: 'APPROVED' }
  | { status: 'DECLINED'; reason: DeclineReason; limit: CardLimitKind | null }

const CARD_DECLINES: Record<Exclude<CardStatus, 'ACTIVE'>, DeclineReason> = {
  FROZEN: 'CARD_FROZEN',
  BLOCKED: 'CARD_BLOCKED',
  INACTIVE: 'CARD_INACTIVE',
  CANCELED: 'CARD_CANCELED',
  CLOSED: 'CARD_CLOSED',
}

const declined = (reason: DeclineReason, limit: CardLimitKind | null = null): Decision => ({
  status: 'DECLINED',
  reason,
  limit,
})

/**
 * The processor's answer to an authorisation, checked in this order: the
 * 3-D Secure code (the cardholder is authenticated before the issuer
 * authorises), the card's status, the account's status, the card's controls
 * (what the person refuses outright), the per-transaction, daily and monthly
 * limits, then the balance. The first failure is the reason.
 */
export function decide(facts: AuthorizationFacts): Decision {
  if (facts.threeDs === 'FAILED') return declined('THREE_DS_FAILED')
  if (facts.cardStatus !== 'ACTIVE') return declined(CARD_DECLINES[facts.cardStatus])
  if (facts.accountStatus !== 'ACTIVE') return declined('ACCOUNT_UNAVAILABLE')
  if (facts.controls) return declined(facts.controls.reason, facts.controls.limit)
  const limit = exceededLimit(facts)
  if (limit) return declined('LIMIT_EXCEEDED', limit)
  if (facts.amount > facts.balance) return declined('INSUFFICIENT_FUNDS')
  return { status: 'APPROVED' }
}

/** The first limit this amount would break, or undefined. A limit may be reached exactly. */
export function exceededLimit(
  facts: Pick<AuthorizationFacts, 'amount' | 'limits' | 'spentToday' | 'spentThisMonth'>,
): CardLimitKind | undefined {
  if (facts.amount > facts.limits.per_transaction) return 'per_transaction'
  if (facts.spentToday + facts.amount > facts.limits.daily) return 'daily'
  if (facts.spentThisMonth + facts.amount > facts.limits.monthly) return 'monthly'
  return undefined
}

/**
 * Whether the card takes no 3-D Secure code now: wrong codes are bounded like
 * activation codes (ACTIVATION_TRIES within ACTIVATION_WINDOW_MS), so six
 * digits cannot be guessed; once the bound is reached every code declines
 * unchecked until the window ends.
 */
export const threeDsLocked = (tries: ActivationTries, now: Date): boolean =>
  activationRetryAfter(tries, now) !== undefined

/** 00:00 UTC of the instant's day: the daily limit's window starts here. */
export const dayStart = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))

/** 00:00 UTC of the first of the instant's month: the monthly limit's window. */
export const monthStart = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))

export interface HoldAccounts {
  /** The fiat account's sub-account: its spendable money. */
  spendable: string
  /** The fiat account's hold sub-account. */
  hold: string
  /** The tenant's external account: the card network, the merchants. */
  external: string
}

/** Approval: the amount leaves the spendable balance for the hold. */
export const holdPostings = (
  a: Pick<HoldAccounts, 'spendable' | 'hold'>,
  currency: string,
  amount: bigint,
): Posting[] => [
  { account: a.spendable, currency, amount: -amount },
  { account: a.hold, currency, amount },
]

/**
 * Clearing: the whole hold ends; `cleared` goes to the merchant (external)
 * and any rest of the authorised amount returns to the spendable balance.
 */
export function clearingPostings(
  a: HoldAccounts,
  currency: string,
  authorized: bigint,
  cleared: bigint,
): Posting[] {
  if (cleared <= 0n || cleared > authorized) {
    throw new RangeError(`cleared ${cleared} outside 1..${authorized}`)
  }
  const legs: Posting[] = [
    { account: a.hold, currency, amount: -authorized },
    { account: a.external, currency, amount: cleared },
  ]
  if (cleared < authorized)
    legs.push({ account: a.spendable, currency, amount: authorized - cleared })
  return legs
}

/** Reversal: the hold returns to the spendable balance. */
export const reversalPostings = (a: HoldAccounts, currency: string, authorized: bigint) => [
  { account: a.hold, currency, amount: -authorized },
  { account: a.spendable, currency, amount: authorized },
]

/** Refund: the merchant sends money back to the spendable balance. */
export const refundPostings = (
  a: Pick<HoldAccounts, 'spendable' | 'external'>,
  currency: string,
  amount: bigint,
) => [
  { account: a.external, currency, amount: -amount },
  { account: a.spendable, currency, amount },
]

/** The card CSV's columns, in order; the header row is exactly these names. */
export const CARD_CSV_COLUMNS = [
  'id',
  'created_at',
  'card_last4',
  'type',
  'status',
  'amount',
  'currency',
  'merchant_name',
  'merchant_mcc',
  'merchant_city',
  'merchant_country',
  'decline_reason',
  'exceeded_limit',
  'authorization_id',
] as const

export const cardCsvHeader = () => csvRecord(CARD_CSV_COLUMNS)

/** One transaction as an RFC 4180 line; merchant text is made formula-safe by csvField. */
export const cardCsvLine = (t: CardTransaction) =>
  csvRecord([
    t.id,
    t.created_at,
    t.card_last4,
    t.type,
    t.status,
    t.amount,
    t.currency,
    t.merchant?.name ?? null,
    t.merchant?.mcc ?? null,
    t.merchant?.city ?? null,
    t.merchant?.country ?? null,
    t.decline_reason,
    t.exceeded_limit,
    t.authorization_id,
  ])

/** `card-transactions-<card>-<YYYY-MM-DD>.csv` */
export const cardCsvFilename = (cardId: string, now: Date) =>
  `card-transactions-${cardId}-${now.toISOString().slice(0, 10)}.csv`

/** The merchant columns as one value; the migration's CHECKs keep mcc and country well formed. */
export const merchantOf = (row: {
  merchant_name: string | null
  merchant_mcc: string | null
  merchant_city: string | null
  merchant_country: string | null
}) =>
  row.merchant_name === null
    ? null
    : {
        name: row.merchant_name,
        mcc: row.merchant_mcc ?? '',
        city: row.merchant_city ?? '',
        country: row.merchant_country ?? '',
      }
