import { type Kysely, type Nullable, type SelectQueryBuilder, sql, type Transaction } from 'kysely'
import type { CardChannel } from '../../../contract/card-choices.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

type Executor = Kysely<DB> | Transaction<DB>

/**
 * The card a processor message names (any tenant: the sandbox network knows
 * every card); with `lock`, locked for the message's transaction.
 */
export function findCardForProcessing(
  db: Kysely<DB> | Transaction<DB>,
  cardId: string,
  options: { lock?: boolean } = {},
) {
  return db
    .selectFrom('cards as k')
    .innerJoin('fiat_accounts as f', 'f.id', 'k.fiat_account_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .select([
      'k.id',
      'k.tenant_id',
      'k.user_id',
      'k.wallet_id',
      'k.status',
      'k.fiat_account_id',
      'k.limit_per_transaction_minor',
      'k.limit_daily_minor',
      'k.limit_monthly_minor',
      'k.three_ds_failures',
      'k.three_ds_failed_since',
      'k.last4',
      'k.controls',
      'f.status as account_status',
      'f.ledger_account_id',
      'f.hold_ledger_account_id',
      'f.currency_uuid',
      'c.code as currency',
      'c.decimals',
    ])
    .where('k.id', '=', cardId)
    .$if(options.lock === true, (query) => query.forUpdate('k'))
    .executeTakeFirst()
}
export type ProcessingCard = NonNullable<Awaited<ReturnType<typeof findCardForProcessing>>>

export async function setHoldAccount(
  trx: Transaction<DB>,
  fiatAccountId: string,
  ledgerId: string,
) {
  await trx
    .updateTable('fiat_accounts')
    .set({ hold_ledger_account_id: ledgerId })
    .where('id', '=', fiatAccountId)
    .execute()
}

/** What the card's approved (and since cleared) authorisations add up to from `since` on. */
export async function authorizedSince(trx: Transaction<DB>, cardId: string, since: Date) {
  const row = await trx
    .selectFrom('card_transactions')
    .select(sql<string>`coalesce(sum(amount_minor), 0)`.as('sum'))
    .where('card_id', '=', cardId)
    .where('type', '=', 'AUTHORIZATION')
    .where('status', 'in', ['APPROVED', 'SETTLED'])
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow()
  return BigInt(row.sum)
}

/**
 * The card's approved (and since cleared) authorisations by merchant category
 * code: this month's sum and, of it, today's — what a category limit counts.
 */
export async function authorizedByMcc(
  trx: Transaction<DB>,
  cardId: string,
  since: { month: Date; day: Date },
) {
  const rows = await trx
    .selectFrom('card_transactions')
    .select([
      'merchant_mcc as mcc',
      sql<string>`sum(amount_minor)`.as('month'),
      sql<string>`coalesce(sum(amount_minor) filter (where created_at >= ${since.day}), 0)`.as(
        'day',
      ),
    ])
    .where('card_id', '=', cardId)
    .where('type', '=', 'AUTHORIZATION')
    .where('status', 'in', ['APPROVED', 'SETTLED'])
    .where('created_at', '>=', since.month)
    .groupBy('merchant_mcc')
    .execute()
  return rows.map((row) => ({ mcc: row.mcc, month: BigInt(row.month), day: BigInt(row.day) }))
}

/** An authorisation of the card, locked (its clearing, reversal or refund is being written). */
export function lockAuthorization(trx: Transaction<DB>, cardId: string, id: string) {
  return trx
    .selectFrom('card_transactions')
    .selectAll()
    .where('id', '=', id)
    .where('card_id', '=', cardId)
    .where('type', '=', 'AUTHORIZATION')
    .forUpdate()
    .executeTakeFirst()
}
export type AuthorizationRow = NonNullable<Awaited<ReturnType<typeof lockAuthorization>>>

/** Cleared and refunded so far for one authorisation. */
export async function settledAmounts(trx: Transaction<DB>, authorizationId: string) {
  const rows = await trx
    .selectFrom('card_transactions')
    .select(['type', sql<string>`sum(amount_minor)`.as('sum')])
    .where('authorization_id', '=', authorizationId)
    .where('type', 'in', ['CLEARING', 'REFUND'])
    .groupBy('type')
    .execute()
  const of = (type: string) => BigInt(rows.find((row) => row.type === type)?.sum ?? '0')
  return { cleared: of('CLEARING'), refunded: of('REFUND') }
}

export interface NewCardTransaction {
  id: string
  card: ProcessingCard
  type: 'AUTHORIZATION' | 'CLEARING' | 'REVERSAL' | 'REFUND'
  status: 'APPROVED' | 'DECLINED' | 'SETTLED'
  amountMinor: bigint
  merchant: { name: string; mcc: string; city: string; country: string } | null
  declineReason: DB['card_transactions']['decline_reason']
  exceededLimit: DB['card_transactions']['exceeded_limit']
  authorizationId: string | null
  /** The network's message id and the message's hash (an idempotent message). */
  message?: { id: string; hash: string }
  /** The card payment's activity item (card-feed.ts). */
  activityId: string | null
  /** How the card was presented: an authorisation's. */
  channel?: CardChannel | null
  at: Date
}

export async function insertTransaction(trx: Transaction<DB>, t: NewCardTransaction) {
  await trx
    .insertInto('card_transactions')
    .values({
      id: t.id,
      tenant_id: t.card.tenant_id,
      user_id: t.card.user_id,
      card_id: t.card.id,
      fiat_account_id: t.card.fiat_account_id,
      wallet_id: t.card.wallet_id,
      type: t.type,
      status: t.status,
      currency_uuid: t.card.currency_uuid,
      amount_minor: t.amountMinor.toString(),
      merchant_name: t.merchant?.name ?? null,
      merchant_mcc: t.merchant?.mcc ?? null,
      merchant_city: t.merchant?.city ?? null,
      merchant_country: t.merchant?.country ?? null,
      decline_reason: t.declineReason,
      exceeded_limit: t.exceededLimit,
      authorization_id: t.authorizationId,
      network_message_id: t.message?.id ?? null,
      message_hash: t.message?.hash ?? null,
      activity_id: t.activityId,
      channel: t.channel ?? null,
      created_at: t.at,
      updated_at: t.at,
    })
    .execute()
}

export async function setAuthorizationStatus(
  trx: Transaction<DB>,
  id: string,
  status: 'SETTLED' | 'REVERSED',
  at: Date,
) {
  await trx
    .updateTable('card_transactions')
    .set({ status, updated_at: at })
    .where('id', '=', id)
    .execute()
}

// ---------------------------------------------------------------------------
// Reads

// A DEPOSIT of a fiat account has no card: the card is left-joined.
type Listing = DB & { t: DB['card_transactions']; k: Nullable<DB['cards']>; c: DB['currencies'] }

export interface CardTransactionScope {
  tenantId: string
  userId: string
  cardId?: string
  fiatAccountId?: string
}

function owned(db: Executor, scope: CardTransactionScope) {
  let query = db
    .selectFrom('card_transactions as t')
    .leftJoin('cards as k', 'k.id', 't.card_id')
    .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
    .where('t.tenant_id', '=', scope.tenantId)
    .where('t.user_id', '=', scope.userId)
  if (scope.cardId !== undefined) query = query.where('t.card_id', '=', scope.cardId)
  if (scope.fiatAccountId !== undefined) {
    query = query.where('t.fiat_account_id', '=', scope.fiatAccountId)
  }
  return query
}

const selectRow = <O>(query: SelectQueryBuilder<Listing, 't' | 'k' | 'c', O>) =>
  query.select([
    't.id',
    't.card_id',
    'k.last4',
    't.fiat_account_id',
    't.wallet_id',
    't.type',
    't.status',
    't.amount_minor',
    't.currency_uuid',
    'c.code as currency',
    'c.decimals',
    't.merchant_name',
    't.merchant_mcc',
    't.merchant_city',
    't.merchant_country',
    't.decline_reason',
    't.exceeded_limit',
    't.authorization_id',
    't.fee_kind',
    't.activity_id',
    't.channel',
    't.created_at',
    't.updated_at',
  ])

// Newest first; the id breaks ties, so pages never split or repeat a row.
const newestFirst = <O>(query: SelectQueryBuilder<Listing, 't' | 'k' | 'c', O>) =>
  query.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc')

export function findTransactions(
  db: Executor,
  scope: CardTransactionScope,
  page: { limit: number; offset: number },
) {
  return newestFirst(selectRow(owned(db, scope)))
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}
export type CardTransactionRow = Awaited<ReturnType<typeof findTransactions>>[number]

export async function countTransactions(db: Executor, scope: CardTransactionScope) {
  const row = await owned(db, scope)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The card transactions one activity item wrote (a payment's steps), oldest first. */
export function findByActivity(db: Executor, tenantId: string, activityId: string) {
  return selectRow(
    db
      .selectFrom('card_transactions as t')
      .leftJoin('cards as k', 'k.id', 't.card_id')
      .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
      .where('t.tenant_id', '=', tenantId)
      .where('t.activity_id', '=', activityId),
  )
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute()
}

/** One row of any tenant by id (the processor's answer). */
export function findTransactionById(db: Executor, id: string) {
  return selectRow(
    db
      .selectFrom('card_transactions as t')
      .leftJoin('cards as k', 'k.id', 't.card_id')
      .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
      .where('t.id', '=', id),
  ).executeTakeFirst()
}

/** Keyset page for the CSV: the `size` rows older than `after` (created_at as PostgreSQL text, id). */
export function findPageAfter(
  db: Executor,
  scope: CardTransactionScope,
  after: { createdAt: string; id: string } | undefined,
  size: number,
) {
  let query = selectRow(owned(db, scope)).select(sql<string>`t.created_at::text`.as('cursor_at'))
  if (after) {
    query = query.where(
      sql<boolean>`(t.created_at, t.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    )
  }
  return newestFirst(query).limit(size).execute()
}

/** The owner's card of this id (any status), or undefined. */
export function findOwnedCard(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('cards')
    .select(['id'])
    .where('tenant_id', '=', owner.tenantId)
    .where('user_id', '=', owner.userId)
    .where('id', '=', id)
    .executeTakeFirst()
}
