import type { Kysely, Transaction } from 'kysely'
import type { CardControls } from '../../../contract/card-controls.ts'
import type { CardStatus, DeliveryAddress, DeliveryStatus } from '../../../contract/cards.ts'
import type { SubAccountType } from '../../../contract/fiat-accounts.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import { type ActivationTries, afterWrongCode, type LimitsMinor } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The tenant's program with what issuing a card under it needs. */
export function findProgramForCard(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('card_programs as p')
    .innerJoin('currencies as c', 'c.uuid', 'p.currency_uuid')
    .select([
      'p.id',
      'p.status',
      'p.currency_uuid',
      'c.code as currency',
      'c.decimals',
      'p.sub_account_type',
      'p.form_factors',
      'p.card_type',
      'p.bin',
      'p.fee_issue_minor',
      'p.fee_monthly_minor',
    ])
    .where('p.tenant_id', '=', tenantId)
    .where('p.id', '=', id)
    .executeTakeFirst()
}
export type ProgramForCard = NonNullable<Awaited<ReturnType<typeof findProgramForCard>>>

export interface NewCard {
  id: string
  tenantId: string
  userId: string
  walletId: string
  fiatAccountId: string
  programId: string
  standAlone: boolean
  formFactor: 'VIRTUAL' | 'PHYSICAL'
  cardType: 'CREDIT' | 'DEBIT'
  nickName: string | null
  bin: string
  last4: string
  panCiphertext: string
  panKeyId: string
  panFingerprint: string
  expiryMonth: number
  expiryYear: number
  limits: LimitsMinor
  /** INACTIVE for a PHYSICAL card until it is delivered and activated. */
  status: CardStatus
  delivery: { address: DeliveryAddress; status: DeliveryStatus } | null
  at: Date
}

/** Inserts the card unless its number is taken in the tenant; false when it is (draw another). */
export async function insertCard(trx: Transaction<DB>, card: NewCard): Promise<boolean> {
  const inserted = await trx
    .insertInto('cards')
    .values({
      id: card.id,
      tenant_id: card.tenantId,
      user_id: card.userId,
      wallet_id: card.walletId,
      fiat_account_id: card.fiatAccountId,
      program_id: card.programId,
      stand_alone: card.standAlone,
      form_factor: card.formFactor,
      card_type: card.cardType,
      nick_name: card.nickName,
      bin: card.bin,
      last4: card.last4,
      pan_ciphertext: card.panCiphertext,
      pan_key_id: card.panKeyId,
      pan_fingerprint: card.panFingerprint,
      expiry_month: card.expiryMonth,
      expiry_year: card.expiryYear,
      limit_per_transaction_minor: card.limits.per_transaction.toString(),
      limit_daily_minor: card.limits.daily.toString(),
      limit_monthly_minor: card.limits.monthly.toString(),
      status: card.status,
      delivery_address: card.delivery ? JSON.stringify(card.delivery.address) : null,
      delivery_status: card.delivery?.status ?? null,
      delivery_updated_at: card.delivery ? card.at : null,
      created_at: card.at,
      updated_at: card.at,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'pan_fingerprint']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

/** The owner's cards with their account's type and currency; never the number. */
const ownedCards = (db: Executor, owner: Owner) =>
  db
    .selectFrom('cards as k')
    .innerJoin('fiat_accounts as f', 'f.id', 'k.fiat_account_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .where('k.tenant_id', '=', owner.tenantId)
    .where('k.user_id', '=', owner.userId)

const CARD_COLUMNS = [
  'k.id',
  'k.wallet_id',
  'k.program_id',
  'k.nick_name',
  'k.last4',
  'k.expiry_month',
  'k.expiry_year',
  'k.status',
  'k.form_factor',
  'k.card_type',
  'k.stand_alone',
  'k.fiat_account_id',
  'f.sub_account_type',
  'f.currency_uuid',
  'c.code as currency',
  'c.decimals',
  'k.limit_per_transaction_minor',
  'k.limit_daily_minor',
  'k.limit_monthly_minor',
  'k.delivery_address',
  'k.delivery_status',
  'k.delivery_updated_at',
  'k.controls',
  'k.frozen_by_lockdown',
  'k.created_at',
  'k.updated_at',
] as const

export interface CardFilters {
  walletId?: string
  subAccountType?: SubAccountType
  fiatAccountId?: string
}

const filtered = (db: Executor, owner: Owner, filters: CardFilters) => {
  let query = ownedCards(db, owner)
  if (filters.walletId) query = query.where('k.wallet_id', '=', filters.walletId)
  if (filters.subAccountType) query = query.where('f.sub_account_type', '=', filters.subAccountType)
  if (filters.fiatAccountId) query = query.where('k.fiat_account_id', '=', filters.fiatAccountId)
  return query
}

/** Oldest first: a new card goes to the end, so pages already seen do not shift. */
export function findCards(
  db: Executor,
  owner: Owner,
  filters: CardFilters,
  page: { limit: number; offset: number },
) {
  return filtered(db, owner, filters)
    .select(CARD_COLUMNS)
    .orderBy('k.created_at')
    .orderBy('k.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}
export type CardRow = Awaited<ReturnType<typeof findCards>>[number]

export async function countCards(db: Executor, owner: Owner, filters: CardFilters) {
  const row = await filtered(db, owner, filters)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** One of the owner's cards; another user's (or tenant's) is not found. */
export function findCard(db: Executor, owner: Owner, id: string): Promise<CardRow | undefined> {
  return ownedCards(db, owner).select(CARD_COLUMNS).where('k.id', '=', id).executeTakeFirst()
}

/**
 * The owner's card, its row locked for the rest of `trx`, with what only the
 * service may see: the stored number and the account's ledger account.
 */
export function lockCard(trx: Transaction<DB>, owner: Owner, id: string) {
  return trx
    .selectFrom('cards as k')
    .innerJoin('fiat_accounts as f', 'f.id', 'k.fiat_account_id')
    .innerJoin('currencies as c', 'c.uuid', 'f.currency_uuid')
    .select([
      'k.id',
      'k.tenant_id',
      'k.wallet_id',
      'k.status',
      'k.stand_alone',
      'k.form_factor',
      'k.last4',
      'k.delivery_status',
      'k.fiat_account_id',
      'k.pan_ciphertext',
      'k.expiry_month',
      'k.expiry_year',
      'k.activation_failures',
      'k.activation_failed_since',
      'f.ledger_account_id',
      'f.currency_uuid',
      'c.code as currency',
      'c.decimals',
    ])
    .where('k.tenant_id', '=', owner.tenantId)
    .where('k.user_id', '=', owner.userId)
    .where('k.id', '=', id)
    .forUpdate('k')
    .executeTakeFirst()
}

/** A card the person moves on from a lockdown's freeze (unfrozen, closed) is no longer its. */
export async function setStatus(trx: Transaction<DB>, id: string, status: CardStatus, at: Date) {
  await trx
    .updateTable('cards')
    .set({
      status,
      frozen_by_lockdown: false,
      updated_at: at,
      ...(status === 'CLOSED' ? { closed_at: at } : {}),
    })
    .where('id', '=', id)
    .execute()
}

/** The card's controls as kept (card-controls.ts). */
export async function setControls(
  trx: Transaction<DB>,
  id: string,
  controls: CardControls,
  at: Date,
) {
  await trx
    .updateTable('cards')
    .set({ controls: JSON.stringify(controls), updated_at: at })
    .where('id', '=', id)
    .execute()
}

/** A card's counters of wrong codes: the printed CVV at activation, and 3-D Secure codes. */
const WRONG_CODE_COLUMNS = {
  activation: { failures: 'activation_failures', since: 'activation_failed_since' },
  three_ds: { failures: 'three_ds_failures', since: 'three_ds_failed_since' },
} as const
export type WrongCodeCounter = keyof typeof WRONG_CODE_COLUMNS

/**
 * One more wrong code on the card's `counter`, counted in the open window or a
 * new one (rules.afterWrongCode); `tries` undefined starts the count over (the
 * right code was typed).
 */
export async function setWrongCodes(
  trx: Transaction<DB>,
  id: string,
  counter: WrongCodeCounter,
  tries: { after: ActivationTries; now: Date } | undefined,
) {
  const next = tries ? afterWrongCode(tries.after, tries.now) : { failures: 0, since: null }
  const columns = WRONG_CODE_COLUMNS[counter]
  await trx
    .updateTable('cards')
    .set({ [columns.failures]: next.failures, [columns.since]: next.since })
    .where('id', '=', id)
    .execute()
}

export async function setLimits(trx: Transaction<DB>, id: string, limits: LimitsMinor, at: Date) {
  await trx
    .updateTable('cards')
    .set({
      limit_per_transaction_minor: limits.per_transaction.toString(),
      limit_daily_minor: limits.daily.toString(),
      limit_monthly_minor: limits.monthly.toString(),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute()
}

export async function setNickName(trx: Transaction<DB>, id: string, nickName: string, at: Date) {
  await trx
    .updateTable('cards')
    .set({ nick_name: nickName, updated_at: at })
    .where('id', '=', id)
    .execute()
}

export function findRenameRequest(trx: Transaction<DB>, cardId: string, requestId: string) {
  return trx
    .selectFrom('card_rename_requests')
    .select('nick_name')
    .where('card_id', '=', cardId)
    .where('request_id', '=', requestId)
    .executeTakeFirst()
}

export async function insertRenameRequest(
  trx: Transaction<DB>,
  row: { cardId: string; requestId: string; nickName: string },
) {
  await trx
    .insertInto('card_rename_requests')
    .values({ card_id: row.cardId, request_id: row.requestId, nick_name: row.nickName })
    .execute()
}

/** Whether a stand-alone card spends from this account (it then takes no other card). */
export async function hasStandAloneCard(db: Executor, fiatAccountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('cards')
    .select('id')
    .where('fiat_account_id', '=', fiatAccountId)
    .where('stand_alone', '=', true)
    .executeTakeFirst()
  return row !== undefined
}

export async function setFiatAccountStatus(
  trx: Transaction<DB>,
  id: string,
  status: 'CANCELED',
  at: Date,
) {
  await trx
    .updateTable('fiat_accounts')
    .set({ status, updated_at: at })
    .where('id', '=', id)
    .execute()
}

/**
 * The wallet's record of money a card moved (what its history shows): a
 * CARD_PROVIDER_REFUND coming back from a closed card or a released hold, a
 * FEE the wallet paid for a stand-alone card. `operation_id` is the card.
 */
export async function insertWalletRecord(
  trx: Transaction<DB>,
  row: {
    id: string
    tenantId: string
    walletId: string
    recordType: 'CARD_PROVIDER_REFUND' | 'FEE'
    currencyUuid: string
    amountMinor: bigint
    cardId: string
    /** The activity item the record belongs to (written through feed/store.ts). */
    activityId: string | null
    at: Date
  },
) {
  const incoming = row.recordType === 'CARD_PROVIDER_REFUND'
  await trx
    .insertInto('wallet_transactions')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      wallet_id: row.walletId,
      type: incoming ? 'deposit' : 'withdrawal',
      method: 'p2p',
      record_type: row.recordType,
      status: 'complete',
      currency_uuid: row.currencyUuid,
      amount_minor: row.amountMinor.toString(),
      address: null,
      operation_id: row.cardId,
      activity_id: row.activityId,
      created_at: row.at,
      updated_at: row.at,
    })
    .execute()
}
