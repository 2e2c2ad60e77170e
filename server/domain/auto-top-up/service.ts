import type { Kysely } from 'kysely'
import type { AutoTopUp, AutoTopUpBody } from '../../../contract/auto-top-up.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { dayStart } from '../card-transactions/rules.ts'
import { type FiatAccountRow, findFiatAccount } from '../fiat-accounts/repository.ts'
import type { Owner } from '../owner.ts'
import { findCurrency } from '../transfers/repository.ts'
import { findWallet } from '../wallets/repository.ts'
import { AutoTopUpError } from './errors.ts'
import * as repo from './repository.ts'
import { settingsOf } from './rules.ts'

/**
 * A balance card account's auto top-up (issue 30): the person reads and sets
 * it; run-auto-top-up.ts does the topping up after a clearing.
 */
export class AutoTopUpService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** @throws AutoTopUpError FIAT_ACCOUNT_NOT_FOUND, FIAT_ACCOUNT_TYPE_MISMATCH */
  async get(owner: Owner, fiatAccountId: string): Promise<AutoTopUp> {
    return this.#present(await this.#account(owner, fiatAccountId))
  }

  /**
   * Replaces the settings: every field while on; off, the ones given are kept
   * for the next time (rules.ts settingsOf).
   * @throws AutoTopUpError as get, and INVALID_AUTO_TOP_UP naming each field
   */
  async set(owner: Owner, fiatAccountId: string, body: AutoTopUpBody): Promise<AutoTopUp> {
    const account = await this.#account(owner, fiatAccountId)
    const wallet =
      body.from_wallet_uuid === undefined
        ? undefined
        : await findWallet(this.db, owner, body.from_wallet_uuid)
    const from =
      body.from_currency === undefined ? undefined : await findCurrency(this.db, body.from_currency)
    const checked = settingsOf(body, {
      account: {
        currencyUuid: account.currency_uuid,
        currency: account.currency,
        decimals: account.decimals,
      },
      walletIsOwn: wallet !== undefined,
      from,
    })
    if ('faults' in checked) {
      throw new AutoTopUpError({ kind: 'INVALID_AUTO_TOP_UP', faults: checked.faults })
    }
    await repo.saveSettings(this.db, owner, account.id, checked.settings, this.clock())
    return this.#present(account)
  }

  async #account(owner: Owner, fiatAccountId: string): Promise<FiatAccountRow> {
    const account = await findFiatAccount(this.db, owner, { id: fiatAccountId })
    if (!account) throw new AutoTopUpError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
    if (account.sub_account_type !== 'balance') {
      throw new AutoTopUpError({
        kind: 'FIAT_ACCOUNT_TYPE_MISMATCH',
        subAccountType: account.sub_account_type,
      })
    }
    return account
  }

  async #present(account: FiatAccountRow): Promise<AutoTopUp> {
    const [settings, last, used] = await Promise.all([
      repo.findSettings(this.db, account.id),
      repo.lastRun(this.db, account.id),
      repo.usedSince(this.db, account.id, dayStart(this.clock())),
    ])
    const amount = (minor: string | null | undefined) =>
      minor === null || minor === undefined ? null : fromMinor(BigInt(minor), account.decimals)
    return {
      fiat_account_id: account.id,
      enabled: settings?.enabled ?? false,
      below: amount(settings?.below_minor),
      top_up_to: amount(settings?.top_up_to_minor),
      from_wallet_uuid: settings?.from_wallet_id ?? null,
      from_currency: settings?.from_currency_uuid ?? null,
      daily_cap: amount(settings?.daily_cap_minor),
      currency: account.currency,
      topped_up_today: fromMinor(used, account.decimals),
      last_run: last
        ? {
            status: last.status,
            amount: amount(last.amount_minor),
            order_id: last.order_id,
            failure: last.failure,
            at: last.updated_at.toISOString(),
          }
        : null,
    }
  }
}
