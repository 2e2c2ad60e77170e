import { type Kysely, sql, type Transaction } from 'kysely'
import type { DisputeReason, DisputeStatus } from '../../../contract/card-disputes.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

/**
 * The person's card payment `id` names — its authorisation, or a clearing of
 * it — as the authorisation, with its card and currency.
 */
export function findOwnedPayment(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('card_transactions as t')
    .innerJoin('card_transactions as a', (join) =>
      join.on(
        sql`a.id`,
        '=',
        sql`case when t.type = 'CLEARING' then t.authorization_id else t.id end`,
      ),
    )
    .select(['a.id', 'a.card_id', 'a.status', 'a.activity_id'])
    .where('t.tenant_id', '=', owner.tenantId)
    .where('t.user_id', '=', owner.userId)
    .where('t.id', '=', id)
    .where('t.type', 'in', ['AUTHORIZATION', 'CLEARING'])
    .where('a.type', '=', 'AUTHORIZATION')
    .executeTakeFirst()
}

export interface NewDispute {
  id: string
  owner: Owner
  cardId: string
  transactionId: string
  reason: DisputeReason
  details: string
  currencyUuid: string
  amountMinor: bigint
  activityId: string | null
  at: Date
}

export async function insertDispute(trx: Transaction<DB>, d: NewDispute) {
  await trx
    .insertInto('card_disputes')
    .values({
      id: d.id,
      tenant_id: d.owner.tenantId,
      user_id: d.owner.userId,
      card_id: d.cardId,
      transaction_id: d.transactionId,
      reason: d.reason,
      details: d.details,
      status: 'SUBMITTED',
      currency_uuid: d.currencyUuid,
      amount_minor: d.amountMinor.toString(),
      activity_id: d.activityId,
      created_at: d.at,
      updated_at: d.at,
    })
    .execute()
}

/** The dispute of a payment, if any (one per payment: the unique index). */
export function findByTransaction(db: Executor, transactionId: string) {
  return db
    .selectFrom('card_disputes')
    .select(['id'])
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst()
}

/** A dispute with what its answer shows: the card's last four, the currency, the merchant. */
function selectDispute(db: Executor) {
  return db
    .selectFrom('card_disputes as d')
    .innerJoin('cards as k', 'k.id', 'd.card_id')
    .innerJoin('currencies as c', 'c.uuid', 'd.currency_uuid')
    .innerJoin('card_transactions as a', 'a.id', 'd.transaction_id')
    .selectAll('d')
    .select([
      'k.last4 as card_last4',
      'c.code as currency',
      'c.decimals',
      'a.merchant_name',
      'a.merchant_mcc',
      'a.merchant_city',
      'a.merchant_country',
    ])
}
export type DisputeRow = NonNullable<Awaited<ReturnType<typeof findDispute>>>

/** Any tenant's dispute (the sandbox network decides them all); with `lock`, locked. */
export function findDispute(db: Executor, id: string, options: { lock?: boolean } = {}) {
  return selectDispute(db)
    .where('d.id', '=', id)
    .$if(options.lock === true, (query) => query.forUpdate('d'))
    .executeTakeFirst()
}

export function findOwnedDispute(db: Executor, owner: Owner, id: string) {
  return selectDispute(db)
    .where('d.tenant_id', '=', owner.tenantId)
    .where('d.user_id', '=', owner.userId)
    .where('d.id', '=', id)
    .executeTakeFirst()
}

export function findOwnedDisputes(
  db: Executor,
  owner: Owner,
  page: { limit: number; offset: number },
) {
  return selectDispute(db)
    .where('d.tenant_id', '=', owner.tenantId)
    .where('d.user_id', '=', owner.userId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countOwnedDisputes(db: Executor, owner: Owner) {
  const row = await db
    .selectFrom('card_disputes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export interface DisputeChange {
  status: DisputeStatus
  /** undefined: the credit stays as it is; null: none (taken back). */
  credit?: { minor: bigint; provisional: boolean; entryId: string | null; at: Date } | null
  at: Date
}

export async function updateDispute(trx: Transaction<DB>, id: string, change: DisputeChange) {
  await trx
    .updateTable('card_disputes')
    .set({
      status: change.status,
      updated_at: change.at,
      ...(change.credit === null && {
        credited_minor: null,
        credited_at: null,
        credit_provisional: false,
      }),
      ...(change.credit && {
        credited_minor: change.credit.minor.toString(),
        credited_at: change.credit.at,
        credit_provisional: change.credit.provisional,
        ...(change.credit.entryId !== null && { credit_entry_id: change.credit.entryId }),
      }),
    })
    .where('id', '=', id)
    .execute()
}
