/**
 * Card programs and fiat accounts: the pure part. Which programs every tenant
 * starts with, how their ids are derived, and when a program can take a new
 * fiat account.
 */
import { createHash } from 'node:crypto'
import { v5 as uuidv5 } from 'uuid'
import type { SubAccountType } from '../../../contract/fiat-accounts.ts'

/** Fixed catalogue uuids of the fiat currencies (migration 0004). */
export const FIAT = {
  EUR: 'fc3b2351-726b-4cca-abda-4cfdcf917b0b',
  USD: '23a118db-510b-4942-ae1f-19d4bbe14324',
} as const

export type DefaultProgramKey =
  | 'eur-prepaid'
  | 'eur-balance'
  | 'usd-balance'
  | 'eur-prepaid-classic'

export interface DefaultProgram {
  /** Stable name of the program within any tenant; its id is derived from it. */
  key: DefaultProgramKey
  name: string
  status: 'ACTIVE' | 'ARCHIVED'
  currencyUuid: string
  formFactors: ('VIRTUAL' | 'PHYSICAL')[]
  cardType: 'CREDIT' | 'DEBIT'
  subAccountType: SubAccountType
  bin: string
  feeIssueMinor: bigint
  feeMonthlyMinor: bigint
  /** NUMERIC(6,3) text: "1" = 1 % of a top-up. */
  feeTopUpPercent: string
}

/**
 * The programs a tenant's card issuer offers until the tenant configures its
 * own. BINs are in ranges no real issuer answers to (test BINs).
 */
export const DEFAULT_PROGRAMS: readonly DefaultProgram[] = [
  {
    key: 'eur-prepaid',
    name: 'Virtual EUR prepaid',
    status: 'ACTIVE',
    currencyUuid: FIAT.EUR,
    formFactors: ['VIRTUAL'],
    cardType: 'DEBIT',
    subAccountType: 'prepaid',
    bin: '40001200',
    feeIssueMinor: 0n,
    feeMonthlyMinor: 0n,
    feeTopUpPercent: '1',
  },
  {
    key: 'eur-balance',
    name: 'EUR balance account',
    status: 'ACTIVE',
    currencyUuid: FIAT.EUR,
    formFactors: ['VIRTUAL', 'PHYSICAL'],
    cardType: 'DEBIT',
    subAccountType: 'balance',
    bin: '53999100',
    feeIssueMinor: 500n,
    feeMonthlyMinor: 100n,
    feeTopUpPercent: '0',
  },
  {
    key: 'usd-balance',
    name: 'USD balance account',
    status: 'ACTIVE',
    currencyUuid: FIAT.USD,
    formFactors: ['VIRTUAL', 'PHYSICAL'],
    cardType: 'DEBIT',
    subAccountType: 'balance',
    bin: '53999200',
    feeIssueMinor: 500n,
    feeMonthlyMinor: 100n,
    feeTopUpPercent: '0.5',
  },
  {
    key: 'eur-prepaid-classic',
    name: 'Classic EUR prepaid',
    status: 'ARCHIVED',
    currencyUuid: FIAT.EUR,
    formFactors: ['VIRTUAL', 'PHYSICAL'],
    cardType: 'DEBIT',
    subAccountType: 'prepaid',
    bin: '40001299',
    feeIssueMinor: 1000n,
    feeMonthlyMinor: 200n,
    feeTopUpPercent: '2',
  },
]

/**
 * A default program's id in a tenant: a name-based UUID (v5) of its key under
 * the tenant's id, so seeding again — at every start, or twice at once —
 * finds the same rows instead of adding new ones.
 */
export const defaultProgramId = (tenantId: string, key: DefaultProgramKey): string =>
  uuidv5(`card-program:${key}`, tenantId)

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
