import { type Kysely, sql, type Transaction } from 'kysely'
import type { AutoTopUpFailure } from '../../../contract/auto-top-up.ts'
import type { AutoTopUpRunStatus } from '../../infra/db/cards-control-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Settings } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The account's settings; `lock` orders the runs of one account (run-auto-top-up.ts). */
export function findSettings(
  db: Executor,
  fiatAccountId: string,
  options: { lock?: boolean } = {},
) {
  const query = db
    .selectFrom('card_auto_top_ups')
    .selectAll()
    .where('fiat_account_id', '=', fiatAccountId)
  return (options.lock ? query.forUpdate() : query).executeTakeFirst()
}
export type SettingsRow = NonNullable<Awaited<ReturnType<typeof findSettings>>>

const stored = (minor: bigint | null) => (minor === null ? null : minor.toString())

export async function saveSettings(
  db: Executor,
  owner: { tenantId: string; userId: string },
  fiatAccountId: string,
  settings: Settings,
  at: Date,
): Promise<void> {
  const values = {
    enabled: settings.enabled,
    below_minor: stored(settings.belowMinor),
    top_up_to_minor: stored(settings.topUpToMinor),
    daily_cap_minor: stored(settings.dailyCapMinor),
    from_wallet_id: settings.fromWalletId,
    from_currency_uuid: settings.fromCurrencyUuid,
    updated_at: at,
  }
  await db
    .insertInto('card_auto_top_ups')
    .values({
      fiat_account_id: fiatAccountId,
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      ...values,
    })
    .onConflict((oc) => oc.column('fiat_account_id').doUpdateSet(values))
    .execute()
}

/** Opens the clearing's run; false when the clearing has one already (the once). */
export async function openRun(
  trx: Transaction<DB>,
  run: { clearingId: string; tenantId: string; userId: string; fiatAccountId: string; at: Date },
): Promise<boolean> {
  const made = await trx
    .insertInto('card_auto_top_up_runs')
    .values({
      clearing_id: run.clearingId,
      tenant_id: run.tenantId,
      user_id: run.userId,
      fiat_account_id: run.fiatAccountId,
      status: 'PENDING',
      created_at: run.at,
      updated_at: run.at,
    })
    .onConflict((oc) => oc.column('clearing_id').doNothing())
    .returning('clearing_id')
    .executeTakeFirst()
  return made !== undefined
}

export function findRun(db: Executor, clearingId: string) {
  return db
    .selectFrom('card_auto_top_up_runs')
    .selectAll()
    .where('clearing_id', '=', clearingId)
    .executeTakeFirst()
}
export type RunRow = NonNullable<Awaited<ReturnType<typeof findRun>>>

/** The account's latest run, what the settings answer shows. */
export function lastRun(db: Executor, fiatAccountId: string) {
  return db
    .selectFrom('card_auto_top_up_runs')
    .selectAll()
    .where('fiat_account_id', '=', fiatAccountId)
    .orderBy('created_at', 'desc')
    .orderBy('clearing_id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * What the account's runs since `since` brought or are bringing — placed, or
 * decided and not yet placed — against the cap. `except`: the run deciding.
 */
export async function usedSince(
  db: Executor,
  fiatAccountId: string,
  since: Date,
  except?: string,
): Promise<bigint> {
  let query = db
    .selectFrom('card_auto_top_up_runs')
    .select(sql<string>`coalesce(sum(amount_minor), 0)`.as('sum'))
    .where('fiat_account_id', '=', fiatAccountId)
    .where('status', 'in', ['PENDING', 'PLACED'])
    .where('created_at', '>=', since)
  if (except) query = query.where('clearing_id', '<>', except)
  return BigInt((await query.executeTakeFirstOrThrow()).sum)
}

/**
 * What the account's earlier top-ups will still bring: runs decided and not
 * yet placed, and placed orders not yet final (their money has not arrived).
 */
export async function onTheWay(db: Executor, fiatAccountId: string, except: string) {
  const row = await db
    .selectFrom('card_auto_top_up_runs as r')
    .leftJoin('orders as o', 'o.id', 'r.order_id')
    .select(sql<string>`coalesce(sum(r.amount_minor), 0)`.as('sum'))
    .where('r.fiat_account_id', '=', fiatAccountId)
    .where('r.clearing_id', '<>', except)
    .where((eb) =>
      eb.or([
        eb('r.status', '=', 'PENDING'),
        eb.and([eb('r.status', '=', 'PLACED'), eb('o.status', 'in', ['NEW', 'PENDING'])]),
      ]),
    )
    .executeTakeFirstOrThrow()
  return BigInt(row.sum)
}

/** Decides the run's amount (still PENDING): a crash after this places the same amount. */
export async function setRunAmount(
  trx: Transaction<DB>,
  clearingId: string,
  amountMinor: bigint,
  at: Date,
) {
  await trx
    .updateTable('card_auto_top_up_runs')
    .set({ amount_minor: amountMinor.toString(), updated_at: at })
    .where('clearing_id', '=', clearingId)
    .where('status', '=', 'PENDING')
    .execute()
}

/** A run with nothing to do (turned off, or topped up meanwhile) leaves no trace. */
export async function dropRun(trx: Transaction<DB>, clearingId: string) {
  await trx
    .deleteFrom('card_auto_top_up_runs')
    .where('clearing_id', '=', clearingId)
    .where('status', '=', 'PENDING')
    .execute()
}

/** Ends the run, only from PENDING: false when another runner ended it first. */
export async function endRun(
  trx: Transaction<DB>,
  clearingId: string,
  end: {
    status: Exclude<AutoTopUpRunStatus, 'PENDING'>
    amountMinor: bigint
    orderId: string | null
    failure: AutoTopUpFailure | null
    at: Date
  },
): Promise<boolean> {
  const ended = await trx
    .updateTable('card_auto_top_up_runs')
    .set({
      status: end.status,
      amount_minor: end.amountMinor.toString(),
      order_id: end.orderId,
      failure: end.failure,
      updated_at: end.at,
    })
    .where('clearing_id', '=', clearingId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst()
  return ended.numUpdatedRows > 0n
}
