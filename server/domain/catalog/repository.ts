import type { Kysely, Transaction } from 'kysely'
import type { AddressFormat, ChainId, CurrencyType } from '../../../contract/catalog.ts'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

export interface CurrencyFilter {
  type?: CurrencyType
  chain?: ChainId
  /** Matched whatever its letter case. */
  code?: string
}

/** In catalogue order: natives by chain, then tokens, then fiat (migration 0004's sort_order). */
export function findCurrencies(db: Executor, filter: CurrencyFilter = {}) {
  let query = db
    .selectFrom('currencies')
    .select(['uuid', 'code', 'name', 'type', 'decimals', 'chain'])
    .orderBy('sort_order')
  if (filter.type) query = query.where('type', '=', filter.type)
  if (filter.chain) query = query.where('chain', '=', filter.chain)
  if (filter.code) query = query.where('code', '=', filter.code.toUpperCase())
  return query.execute()
}

export function findCurrenciesByUuid(db: Executor, uuids: readonly string[]) {
  return db
    .selectFrom('currencies')
    .select(['uuid', 'code', 'chain', 'decimals', 'sort_order'])
    .where('uuid', 'in', uuids)
    .execute()
}

export function findChains(db: Executor, filter: { address_format?: AddressFormat } = {}) {
  let query = db
    .selectFrom('chains as ch')
    .innerJoin('currencies as cu', 'cu.uuid', 'ch.native_currency_uuid')
    .select([
      'ch.id',
      'ch.name',
      'cu.code as native_currency',
      'ch.address_format',
      'ch.confirmations',
    ])
    .orderBy('ch.sort_order')
  if (filter.address_format) query = query.where('ch.address_format', '=', filter.address_format)
  return query.execute()
}
