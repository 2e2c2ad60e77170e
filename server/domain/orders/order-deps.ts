import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import type { JobRunner } from '../../infra/jobs.ts'
import { readOnce } from '../../infra/read-once.ts'
import type { BankingProvider } from '../../providers/banking/banking.ts'
import type { ChainPayouts } from '../../providers/chain/payouts.ts'
import type { CurrencyRow } from './repository.ts'
import * as repo from './repository.ts'

export interface OrderRails {
  bank: BankingProvider
  chain: ChainPayouts
}

export interface OrderSettings {
  /** Confirmations a sandbox withdrawal waits for at most (SANDBOX_MAX_CONFIRMATIONS). */
  maxConfirmations: number
}

export type Trx = Transaction<DB>

export type Catalog = ReadonlyMap<string, CurrencyRow>

/** What every order use case works with; built once by OrderService. */
export interface OrderDeps {
  db: Kysely<DB>
  jobs: Pick<JobRunner, 'enqueue'>
  rails: OrderRails
  settings: OrderSettings
  /**
   * The catalogue's currencies. Call it outside any transaction: on PGlite a
   * transaction holds the only connection, so a read through `db` inside one
   * would wait for itself.
   */
  catalog: () => Promise<Catalog>
}

/** The catalogue's currencies by uuid, read once (infra/read-once.ts). */
export const catalogOnce = (db: Kysely<DB>): (() => Promise<Catalog>) =>
  readOnce(async () => new Map((await repo.findCurrencies(db)).map((row) => [row.uuid, row])))
