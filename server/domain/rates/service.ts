import type { Kysely } from 'kysely'
import type { RateBase, RateList } from '../../../contract/rates.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { RatesProvider } from '../../providers/rates/rates.ts'
import { findCurrencies } from '../catalog/repository.ts'

export class RatesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly provider: RatesProvider,
  ) {}

  /**
   * Every code of the catalogue priced in `base`, in catalogue order. A token
   * is priced by its code, whatever its chain (USDT on Tron = USDT on Ethereum).
   * @throws RatesUnavailableError when the provider gives no prices
   */
  async list(base: RateBase): Promise<RateList> {
    const codes = [...new Set((await findCurrencies(this.db)).map((currency) => currency.code))]
    const quote = await this.provider.quote(base, codes)
    return {
      base,
      as_of: quote.asOf.toISOString(),
      rates: codes.flatMap((code) => {
        const rate = quote.rates.get(code)
        return rate === undefined ? [] : [{ code, rate }]
      }),
    }
  }
}
