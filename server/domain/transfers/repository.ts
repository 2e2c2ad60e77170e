import { type Insertable, type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import type { ContactChannel } from '../../../contract/transfers.ts'
import type { TransfersTable } from '../../infra/db/pay-people-schema.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import type { Addressee } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

export type TransferRow = Selectable<TransfersTable>

// ---------------------------------------------------------------------------
// People

const personColumns = [
  'u.id',
  'u.email',
  'u.phone',
  'u.blocked_at',
  'p.first_name',
  'p.last_name',
  'p.username',
  'p.language',
  'p.people_discoverable',
] as const

/**
 * The person a contact or id names in the tenant, with what showing and
 * paying them needs; one indexed read whichever they are, and the same read
 * whether they may be found or not (the lookup's time tells nothing).
 */
export function findPerson(db: Executor, tenantId: string, addressee: Addressee) {
  let query = db
    .selectFrom('users as u')
    .innerJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select(personColumns)
    .where('u.tenant_id', '=', tenantId)
  if (addressee.kind === 'user') query = query.where('u.id', '=', addressee.userId)
  else if (addressee.channel === 'email') query = query.where('u.email', '=', addressee.value)
  else if (addressee.channel === 'phone') query = query.where('u.phone', '=', addressee.value)
  else {
    query = query
      .where('p.tenant_id', '=', tenantId)
      .where(sql<string>`lower(p.username)`, '=', addressee.value)
  }
  return query.limit(1).executeTakeFirst()
}
export type PersonRow = NonNullable<Awaited<ReturnType<typeof findPerson>>>

/** Whether two people ever paid each other (either way): the sender knows this person. */
export async function paidBefore(
  db: Executor,
  tenantId: string,
  senderId: string,
  otherId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('transfers')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb.and([eb('sender_id', '=', senderId), eb('recipient_id', '=', otherId)]),
        eb.and([eb('sender_id', '=', otherId), eb('recipient_id', '=', senderId)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether the sender ever sent anything to this contact (still waiting, claimed or returned). */
export async function sentToContactBefore(
  db: Executor,
  tenantId: string,
  senderId: string,
  channel: ContactChannel,
  contact: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('transfers')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('sender_id', '=', senderId)
    .where('contact_channel', '=', channel)
    .where('contact', '=', contact)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The wallet money for this person lands in: their oldest Personal wallet,
 * else their oldest wallet; undefined when they have none.
 */
export async function receivingWallet(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('wallets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy(sql`type = 'personal'`, 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  return row?.id
}

/** The people the person paid or was paid by, each once, the latest first. */
export function recentPeople(db: Executor, owner: Owner, limit: number) {
  const sent = db
    .selectFrom('transfers')
    .select(['recipient_id as other', 'created_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('sender_id', '=', owner.userId)
    .where('recipient_id', 'is not', null)
  const received = db
    .selectFrom('transfers')
    .select(['sender_id as other', 'created_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('recipient_id', '=', owner.userId)
  return db
    .selectFrom(sent.unionAll(received).as('t'))
    .innerJoin('users as u', 'u.id', 't.other')
    .innerJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select([...personColumns, (eb) => eb.fn.max('t.created_at').as('last_at')])
    .where('u.blocked_at', 'is', null)
    .groupBy([...personColumns])
    .orderBy('last_at', 'desc')
    .limit(limit)
    .execute()
}

/** The tenant's threshold for the second look, and the currency it is counted in. */
export function stepUpThreshold(db: Executor, tenantId: string) {
  return db
    .selectFrom('tenants')
    .select(['new_payee_step_up_amount as amount', 'default_display_currency as currency'])
    .where('id', '=', tenantId)
    .executeTakeFirst()
}

// ---------------------------------------------------------------------------
// Transfers

export async function insertTransfer(
  trx: Transaction<DB>,
  row: Insertable<TransfersTable>,
): Promise<void> {
  await trx.insertInto('transfers').values(row).execute()
}

/** A transfer the person sent or received; another person's answers nothing. */
export function findTransfer(db: Executor, owner: Owner, id: string) {
  return db
    .selectFrom('transfers')
    .selectAll()
    .where('tenant_id', '=', owner.tenantId)
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('sender_id', '=', owner.userId), eb('recipient_id', '=', owner.userId)]),
    )
    .executeTakeFirst()
}

/** The transfer, locked: its claim and its return are decided one at a time. */
export function lockTransfer(trx: Transaction<DB>, tenantId: string, id: string) {
  return trx
    .selectFrom('transfers')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** Transfers that wait for any of these contacts (a newcomer's e-mail, phone, username). */
export function claimableFor(
  db: Executor,
  tenantId: string,
  contacts: readonly { channel: ContactChannel; value: string }[],
) {
  if (contacts.length === 0) return Promise.resolve([])
  return db
    .selectFrom('transfers')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'AWAITING_CLAIM')
    .where((eb) =>
      eb.or(
        contacts.map((contact) =>
          eb.and([eb('contact_channel', '=', contact.channel), eb('contact', '=', contact.value)]),
        ),
      ),
    )
    .orderBy('created_at')
    .execute()
}

/** The claim or the return of a waiting transfer: only from AWAITING_CLAIM. */
export async function settleClaimable(
  trx: Transaction<DB>,
  id: string,
  change:
    | { status: 'COMPLETE'; recipient_id: string; recipient_wallet_id: string; at: Date }
    | { status: 'RETURNED'; at: Date },
): Promise<boolean> {
  const { at, ...columns } = change
  const result = await trx
    .updateTable('transfers')
    .set({ ...columns, settled_at: at })
    .where('id', '=', id)
    .where('status', '=', 'AWAITING_CLAIM')
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

// ---------------------------------------------------------------------------
// Wallet records (the wallet's history of the transfer, method p2p)

export interface TransferRecord {
  id: string
  tenantId: string
  walletId: string
  type: 'deposit' | 'withdrawal'
  status: 'complete' | 'pending' | 'failed'
  currencyUuid: string
  amountMinor: bigint
  transferId: string
  activityId: string
  at: Date
}

export async function insertRecord(trx: Transaction<DB>, record: TransferRecord): Promise<void> {
  await trx
    .insertInto('wallet_transactions')
    .values({
      id: record.id,
      tenant_id: record.tenantId,
      wallet_id: record.walletId,
      type: record.type,
      method: 'p2p',
      record_type:
        record.type === 'deposit' ? 'DEPOSIT_CRYPTO_INTERNAL' : 'WITHDRAWAL_CRYPTO_INTERNAL',
      status: record.status,
      currency_uuid: record.currencyUuid,
      amount_minor: record.amountMinor.toString(),
      operation_id: record.transferId,
      activity_id: record.activityId,
      created_at: record.at,
      updated_at: record.at,
    })
    .execute()
}

/** The sender's record of a claimable transfer, once it is claimed or back. */
export async function settleSenderRecord(
  trx: Transaction<DB>,
  transfer: Pick<TransferRow, 'tenant_id' | 'id' | 'sender_wallet_id'>,
  status: 'complete' | 'failed',
  at: Date,
): Promise<void> {
  await trx
    .updateTable('wallet_transactions')
    .set({ status, updated_at: at })
    .where('tenant_id', '=', transfer.tenant_id)
    .where('wallet_id', '=', transfer.sender_wallet_id)
    .where('operation_id', '=', transfer.id)
    .execute()
}

// ---------------------------------------------------------------------------
// The catalogue

export function findCurrency(db: Executor, uuid: string) {
  return db
    .selectFrom('currencies')
    .select(['uuid', 'code', 'chain', 'decimals', 'type'])
    .where('uuid', '=', uuid.toLowerCase())
    .executeTakeFirst()
}
export type CurrencyRow = NonNullable<Awaited<ReturnType<typeof findCurrency>>>
