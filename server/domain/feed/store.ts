/**
 * The feed's row store: what every area that moves money records its items
 * through, inside the transaction that moves it, and what those writers look
 * up to name an item. The writers themselves live with their producers
 * (orders/order-feed.ts, deposits/deposit-feed.ts, cards/card-feed.ts,
 * card-transactions/card-feed.ts, transfers/transfer-feed.ts,
 * deposits/account-feed.ts); the feed's pages are read by activity/.
 * An item is found again by its source (order, card authorisation, deposit
 * record, card), so a step repeated after a crash changes nothing twice.
 */
import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely'
import type { ActivitySourceType, ActivityType } from '../../../contract/activity.ts'
import type { ActivitiesTable, DB, StoredActivityEvent } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

// ---------------------------------------------------------------------------
// Writes (in the transaction that moves the money)

export type NewActivity = Insertable<ActivitiesTable>

/**
 * Inserts the item unless its source already has one of this type for this
 * person (a step repeated after a crash): answers the id either way.
 */
export async function insertActivity(trx: Transaction<DB>, row: NewActivity): Promise<string> {
  const inserted = await trx
    .insertInto('activities')
    .values(row)
    .onConflict((oc) => oc.columns(['source_id', 'source_type', 'type', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) return inserted.id
  const existing = await findBySource(trx, row)
  if (!existing) throw new Error(`activity of ${row.source_type} ${row.source_id} vanished`)
  return existing.id
}

export interface SourceRef {
  tenant_id: string
  source_type: ActivitySourceType
  source_id: string
  type?: ActivityType
  user_id?: string
}

/** The item of a source, locked: its steps change it one at a time. */
export function findBySource(trx: Transaction<DB>, ref: SourceRef) {
  let query = trx
    .selectFrom('activities')
    .select(['id', 'amount_minor', 'refunded_minor', 'status'])
    .where('source_id', '=', ref.source_id)
    .where('source_type', '=', ref.source_type)
    .where('tenant_id', '=', ref.tenant_id)
  if (ref.type) query = query.where('type', '=', ref.type)
  if (ref.user_id) query = query.where('user_id', '=', ref.user_id)
  return query.forUpdate().executeTakeFirst()
}

/**
 * Changes every item of the source (an order is one item, or two when it paid
 * another person), appending `event` to its timeline when given.
 */
export async function updateBySource(
  trx: Transaction<DB>,
  ref: SourceRef,
  change: Omit<Updateable<ActivitiesTable>, 'timeline'>,
  event?: StoredActivityEvent,
): Promise<void> {
  let query = trx
    .updateTable('activities')
    .set(change)
    .where('source_id', '=', ref.source_id)
    .where('source_type', '=', ref.source_type)
    .where('tenant_id', '=', ref.tenant_id)
  if (event) {
    query = query.set({ timeline: sql`timeline || ${JSON.stringify([event])}::jsonb` })
  }
  if (ref.type) query = query.where('type', '=', ref.type)
  await query.execute()
}

// ---------------------------------------------------------------------------
// What writers look up

/** Who holds the wallet (the receiving side of a transfer). */
export function walletHolder(db: Executor, tenantId: string, walletId: string) {
  return db
    .selectFrom('wallets')
    .select(['id', 'user_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', walletId)
    .executeTakeFirst()
}

/** A counterparty's name as the person saved it: the legal name, else first and last. */
export async function counterpartyName(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('counterparties')
    .select(['legal_name', 'first_name', 'last_name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  return row.legal_name ?? ([row.first_name, row.last_name].filter(Boolean).join(' ') || null)
}

/** A person's name from their profile, or null when they have not given one. */
export async function personName(db: Executor, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('user_profiles')
    .select(['first_name', 'last_name'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return [row?.first_name, row?.last_name].filter(Boolean).join(' ') || null
}

/**
 * The stand-alone card whose own account this is, if it is one: money onto
 * such an account is that card's top-up, in the card's feed and named by it.
 */
export function standAloneCard(db: Executor, tenantId: string, fiatAccountId: string) {
  return db
    .selectFrom('cards')
    .select(['id', 'last4'])
    .where('tenant_id', '=', tenantId)
    .where('fiat_account_id', '=', fiatAccountId)
    .where('stand_alone', '=', true)
    .executeTakeFirst()
}

export async function cardLast4(db: Executor, cardId: string): Promise<string> {
  const row = await db
    .selectFrom('cards')
    .select('last4')
    .where('id', '=', cardId)
    .executeTakeFirstOrThrow()
  return row.last4
}

/** The card an item is on: its fees and return (cards), its payments (card-transactions). */
export interface CardRef {
  tenant_id: string
  user_id: string
  wallet_id: string
  id: string
  fiat_account_id: string
  /** Looked up when the caller has not read it. */
  last4?: string
  currency_uuid: string
}

/** The columns of an item on the card. */
export const onCard = async (trx: Transaction<DB>, card: CardRef) => ({
  tenant_id: card.tenant_id,
  user_id: card.user_id,
  wallet_id: card.wallet_id,
  card_id: card.id,
  fiat_account_id: card.fiat_account_id,
  card_last4: card.last4 ?? (await cardLast4(trx, card.id)),
  currency_uuid: card.currency_uuid,
})

// ---------------------------------------------------------------------------
// What a wallet record says of its item (labels.ts)

/** What a record needs from its item to be worded: its type and names. */
export function findLabels(db: Executor, tenantId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('activities as a')
    .innerJoin('currencies as c', 'c.uuid', 'a.currency_uuid')
    .leftJoin('currencies as r', 'r.uuid', 'a.received_currency_uuid')
    .select([
      'a.id',
      'a.type',
      'a.direction',
      'a.counterparty_name',
      'a.merchant_name',
      'a.card_last4',
      'c.code as currency',
      'r.code as received_currency',
    ])
    .where('a.tenant_id', '=', tenantId)
    .where('a.id', 'in', ids)
    .execute()
}
export type LabelRow = Awaited<ReturnType<typeof findLabels>>[number]
