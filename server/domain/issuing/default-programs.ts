/**
 * The card programs a tenant's card issuer offers until the tenant configures
 * its own: what every new tenant gets (tenants/service.ts) and every start
 * makes sure of (the tenant seed). Kernel, below the tenants that get them and
 * the fiat accounts and cards opened under them.
 */
import type { Kysely } from 'kysely'
import { v5 as uuidv5 } from 'uuid'
import type { SubAccountType } from '../../../contract/fiat-accounts.ts'
import type { DB } from '../../infra/db/schema.ts'
import { insertProgramsIfMissing } from './repository.ts'

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

/**
 * Gives the tenant the default card programs it lacks (DEFAULT_PROGRAMS).
 * Their ids derive from the tenant and the program, so it is safe to run at
 * every start and for every new tenant, and a program the tenant changed
 * (renamed, archived) stays as the tenant left it.
 */
export async function ensureDefaultPrograms(db: Kysely<DB>, tenantId: string): Promise<void> {
  await insertProgramsIfMissing(
    db,
    tenantId,
    DEFAULT_PROGRAMS.map((program, index) => ({
      ...program,
      id: defaultProgramId(tenantId, program.key),
      sortOrder: (index + 1) * 10,
    })),
  )
}
