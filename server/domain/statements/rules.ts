/**
 * Statements, the pure part: which periods can be asked for, what a ledger
 * entry was for (from its idempotency key), how a period's movements add up
 * to its closing balance, and the short code a statement is checked by. No IO.
 */
import { STATEMENT_MAX_DAYS } from '../../../contract/statements.ts'
import { isUuid } from '../../infra/uuid.ts'
import { StatementError } from './errors.ts'

const DAY_MS = 86_400_000

// ---------------------------------------------------------------------------
// Periods

/**
 * A period that can be drawn: `from` before `to`, at most STATEMENT_MAX_DAYS
 * long, and not ending more than a day after `now` (a month in progress may
 * be asked for; next year's may not). `timeZone` must be one Intl knows.
 * @throws StatementError INVALID_PERIOD naming the field at fault
 */
export function checkPeriod(
  period: { from: Date; to: Date; timeZone: string },
  now: Date,
  fields: { from: string; to: string; timeZone: string },
): void {
  const fault = (field: string, message: string) =>
    new StatementError({ kind: 'INVALID_PERIOD', field, message })
  if (period.to.getTime() <= period.from.getTime()) throw fault(fields.from, 'must be before to')
  if (period.to.getTime() - period.from.getTime() > STATEMENT_MAX_DAYS * DAY_MS) {
    throw fault(fields.to, `must be at most ${STATEMENT_MAX_DAYS} days after from`)
  }
  if (period.to.getTime() > now.getTime() + DAY_MS) {
    throw fault(fields.to, 'must not be more than a day in the future')
  }
  if (!isTimeZone(period.timeZone)) {
    throw fault(fields.timeZone, 'must be an IANA time zone, such as Europe/Berlin')
  }
}

/** Whether Intl knows the zone ("Europe/Berlin", "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------
// What an entry was for

/**
 * The business operation a ledger entry belongs to, read from its
 * idempotency key (`<operation>:<id>:<step>`, ledger/service.ts): what finds
 * its activity item, so a statement's line says what the feed says.
 * - `order`: any step of an order (hold, settle, release, a bank transfer received);
 * - `deposit`: a crypto deposit seen or confirmed (its wallet record's id);
 * - `card_transaction`: a card payment's hold, clearing or reversal (the
 *   authorisation's id), or a refund (its own id, `refund`);
 * - `bank_credit`: a SEPA credit into a fiat account;
 * - `card`: what a stand-alone card's wallet paid or got back (its issue
 *   fee, its balance when closed);
 * - `card_fee`: a card's monthly fee for a period;
 * - `unknown`: a key of no such shape (worded by the entry's kind).
 */
export type EntrySource =
  | { kind: 'order'; id: string }
  | { kind: 'deposit'; id: string }
  | { kind: 'card_transaction'; id: string; refund: boolean }
  | { kind: 'bank_credit'; id: string }
  | { kind: 'card'; id: string; item: 'fee' | 'card_balance_return' }
  | { kind: 'card_fee'; id: string; period: string }
  | { kind: 'unknown' }

export function entrySource(key: string): EntrySource {
  const [operation, id, ...steps] = key.split(':')
  if (!id || !isUuid(id)) return { kind: 'unknown' }
  const ref = id.toLowerCase()
  const step = steps.join(':')
  switch (operation) {
    case 'order':
      return { kind: 'order', id: ref }
    case 'deposit':
      return { kind: 'deposit', id: ref }
    case 'card_tx':
      return { kind: 'card_transaction', id: ref, refund: step === 'refund' }
    case 'bank-credit':
      return { kind: 'bank_credit', id: ref }
    case 'card':
      if (step === 'closed') return { kind: 'card', id: ref, item: 'card_balance_return' }
      if (step === 'fee:issue') return { kind: 'card', id: ref, item: 'fee' }
      if (step.startsWith('fee:')) return { kind: 'card_fee', id: ref, period: step.slice(4) }
      return { kind: 'unknown' }
    default:
      return { kind: 'unknown' }
  }
}

// ---------------------------------------------------------------------------
// Adding up

/** One entry's net change to the statement's accounts in one currency (never zero). */
export interface Movement {
  entryId: string
  bookedAt: Date
  currency: string
  amount: bigint
}

export interface StatementLine<M extends Movement = Movement> {
  movement: M
  /** The balance after it. */
  balance: bigint
}

export interface CurrencySection<M extends Movement = Movement> {
  currency: string
  opening: bigint
  moneyIn: bigint
  /** Positive: what left. */
  moneyOut: bigint
  closing: bigint
  lines: StatementLine<M>[]
}

/**
 * Per currency: the opening balance, every movement in booking order with
 * the balance after it, the totals in and out, and the closing balance —
 * which is opening + Σ movements by construction, to the minor unit (the
 * property test holds it against the ledger's own balances). Currencies in
 * `order`; one that had neither a balance nor a movement is left out unless
 * `always` names it (a fiat account's one currency).
 */
export function addUp<M extends Movement>(
  openings: ReadonlyMap<string, bigint>,
  movements: readonly M[],
  order: readonly string[],
  always: readonly string[] = [],
): CurrencySection<M>[] {
  const sorted = [...movements].sort(
    (a, b) =>
      a.bookedAt.getTime() - b.bookedAt.getTime() ||
      (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0),
  )
  const sections: CurrencySection<M>[] = []
  for (const currency of order) {
    const own = sorted.filter((movement) => movement.currency === currency)
    const opening = openings.get(currency) ?? 0n
    if (own.length === 0 && opening === 0n && !always.includes(currency)) continue
    let balance = opening
    let moneyIn = 0n
    let moneyOut = 0n
    const lines = own.map((movement) => {
      balance += movement.amount
      if (movement.amount > 0n) moneyIn += movement.amount
      else moneyOut -= movement.amount
      return { movement, balance }
    })
    sections.push({ currency, opening, moneyIn, moneyOut, closing: balance, lines })
  }
  return sections
}

// ---------------------------------------------------------------------------
// Who and which account, as the verify route may tell

/** "Mia Wagner" → "M. W."; no name: "–". */
export function initialsOf(firstName: string | null, lastName: string | null): string {
  const letters = [firstName, lastName]
    .map((name) => [...(name?.trim() ?? '')].find((char) => /\p{L}/u.test(char)))
    .filter((char): char is string => char !== undefined)
  return letters.length === 0
    ? '–'
    : letters.map((char) => `${char.toLocaleUpperCase()}.`).join(' ')
}

/** A wallet's "last four": the end of its id, as people would read it off the app. */
export const walletLast4 = (walletId: string) => walletId.replace(/-/g, '').slice(-4).toUpperCase()

// ---------------------------------------------------------------------------
// The code

/** Crockford's base32: no I, L, O or U, so a code read aloud or retyped is not misread. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const CODE_LENGTH = 12

/** Twelve Crockford characters (60 bits) from random bytes: guessing one is hopeless at any rate limit. */
export function statementCode(random: Uint8Array): string {
  if (random.length < CODE_LENGTH) throw new RangeError(`a code needs ${CODE_LENGTH} random bytes`)
  return [...random.subarray(0, CODE_LENGTH)].map((byte) => CROCKFORD[byte & 31]).join('')
}

/**
 * A code as someone typed it: case and dashes or spaces ignored, the letters
 * Crockford folds (O → 0, I and L → 1) folded; undefined when it cannot be one.
 */
export function normaliseCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
  if (code.length !== CODE_LENGTH || [...code].some((char) => !CROCKFORD.includes(char))) {
    return undefined
  }
  return code
}

/** "7KQ2-M9XA-3FPD": how the file prints a code, in fours. */
export const groupedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code

/** `statement-2026-03-01-2026-03-31-7KQ2M9XA3FPD.pdf`: the dates as the file's zone reads them. */
export function statementFileName(
  period: { firstDay: string; lastDay: string },
  code: string,
  format: string,
): string {
  return `statement-${period.firstDay}-${period.lastDay}-${code}.${format}`
}
