import type { Kysely } from 'kysely'
import type { AddressFormat, ChainList, CurrencyList } from '../../../contract/catalog.ts'
import type { DB } from '../../infra/db/schema.ts'
import { wholePage } from '../page.ts'
import * as repo from './repository.ts'

/**
 * The whole catalogue fits on one page (docs/architecture.md's page shape, with
 * limit = total): clients cache it, and a filter narrows it, never pages it.
 */
const onePage = wholePage

export class CatalogService {
  constructor(private readonly db: Kysely<DB>) {}

  async listCurrencies(filter: repo.CurrencyFilter): Promise<CurrencyList> {
    return onePage(await repo.findCurrencies(this.db, filter))
  }

  async listChains(filter: { address_format?: AddressFormat }): Promise<ChainList> {
    return onePage(await repo.findChains(this.db, filter))
  }
}
