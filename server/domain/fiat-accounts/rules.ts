/**
 * Card programs and fiat accounts: the pure part. When a program can take a
 * new fiat account, and how an account's numbers are derived. Which programs
 * every tenant starts with is issuing/default-programs.ts.
 */
import { createHash } from 'node:crypto'

export type ProgramRefusal = 'PROGRAM_NOT_FOUND' | 'PROGRAM_ARCHIVED'

/**
 * Why a fiat account cannot be opened under this program, or undefined when
 * it can. `program` is the tenant's program of that id, if it has one.
 */
export function programRefusal(
  program: { status: 'ACTIVE' | 'ARCHIVED' } | undefined,
): ProgramRefusal | undefined {
  if (!program) return 'PROGRAM_NOT_FOUND'
  if (program.status !== 'ACTIVE') return 'PROGRAM_ARCHIVED'
  return undefined
}

/** NUMERIC text as a person writes it: "1.000" → "1", "0.500" → "0.5", "0.000" → "0". */
export function plainDecimal(numeric: string): string {
  if (!numeric.includes('.')) return numeric
  return numeric.replace(/0+$/, '').replace(/\.$/, '')
}

/**
 * The last four digits of an account's number at the issuer, drawn from its
 * id (a hash, so two accounts opened in the same millisecond still differ —
 * a v7 id's first digits are its time): the same for the account's whole life,
 * on every node, with nothing stored.
 */
export function accountLast4(accountId: string): string {
  const digest = createHash('sha256').update(accountId).digest()
  return String(digest.readUInt32BE(0) % 10_000).padStart(4, '0')
}

/** How many account numbers an account tries before its IBAN is given up on (each a fresh draw). */
export const ACCOUNT_NUMBER_ATTEMPTS = 8

/**
 * The account's 10-digit number at the bank, which its IBAN carries: "8"
 * (the bank's range for customers' accounts; the platform's own start with
 * 0), five digits drawn from the id and `attempt`, then `accountLast4` — so
 * the IBAN ends in the four digits the account is named by. Another account
 * drawing the same number (the unique IBAN refuses it) tries the next attempt.
 */
export function accountNumber(accountId: string, attempt: number): string {
  const digest = createHash('sha256').update(`${accountId}:iban:${attempt}`).digest()
  const middle = String(digest.readUInt32BE(0) % 100_000).padStart(5, '0')
  return `8${middle}${accountLast4(accountId)}`
}
