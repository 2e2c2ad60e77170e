import type { Kysely, Transaction } from 'kysely'
import type { ChainId } from '../../../contract/catalog.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** Any tenant's wallet by id (the sandbox deposits into wallets it is told of). */
export function findWalletById(db: Executor, walletId: string) {
  return db
    .selectFrom('wallets')
    .select(['id', 'tenant_id', 'user_id'])
    .where('id', '=', walletId)
    .executeTakeFirst()
}

/** A crypto currency by uuid, or by code on a chain. */
export function findCurrency(
  db: Executor,
  ref: { uuid: string } | { code: string; chain: ChainId },
) {
  let query = db.selectFrom('currencies').select(['uuid', 'code', 'chain', 'decimals'])
  query =
    'uuid' in ref
      ? query.where('uuid', '=', ref.uuid)
      : query.where('code', '=', ref.code).where('chain', '=', ref.chain)
  return query.executeTakeFirst()
}

/** The wallet's addresses on the chain, newest first. */
export async function findWalletAddresses(
  db: Executor,
  tenantId: string,
  walletId: string,
  chain: ChainId,
): Promise<string[]> {
  const rows = await db
    .selectFrom('wallet_addresses')
    .select('address')
    .where('tenant_id', '=', tenantId)
    .where('wallet_id', '=', walletId)
    .where('chain', '=', chain)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map((row) => row.address)
}

/**
 * Records an incoming crypto deposit unless the tenant has one with this hash
 * already (the chain's identity of a transfer); then answers undefined.
 */
export function insertDeposit(
  trx: Transaction<DB>,
  row: {
    id: string
    tenantId: string
    walletId: string
    currencyUuid: string
    amountMinor: bigint
    address: string
    txHash: string
    /** Its activity item (written after it, once it is known to be new). */
    activityId: string
    at: Date
  },
) {
  return trx
    .insertInto('wallet_transactions')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      wallet_id: row.walletId,
      type: 'deposit',
      method: 'crypto',
      record_type: 'DEPOSIT_CRYPTO_EXTERNAL',
      status: 'new',
      currency_uuid: row.currencyUuid,
      amount_minor: row.amountMinor.toString(),
      address: row.address,
      tx_hash: row.txHash,
      confirmations: 0,
      activity_id: row.activityId,
      created_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'tx_hash', 'record_type'])
        .where('tx_hash', 'is not', null)
        .doNothing(),
    )
    .returning(['id', 'created_at'])
    .executeTakeFirst()
}

/** A deposit record with what the answer and the steps need; `lock` for the step's transaction. */
export function findDeposit(
  db: Executor,
  where: { tenantId: string } & ({ id: string } | { txHash: string }),
  lock = false,
) {
  let query = db
    .selectFrom('wallet_transactions as t')
    .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
    .leftJoin('chains as ch', 'ch.id', 'c.chain')
    .select([
      't.id',
      't.tenant_id',
      't.wallet_id',
      't.type',
      't.method',
      't.record_type',
      't.status',
      't.currency_uuid',
      't.amount_minor',
      't.address',
      't.tx_hash',
      't.confirmations',
      't.created_at',
      't.updated_at',
      't.activity_id',
      'c.code as currency',
      'c.chain',
      'c.decimals',
      'ch.confirmations as chain_confirmations',
    ])
    .where('t.tenant_id', '=', where.tenantId)
    .where('t.record_type', '=', 'DEPOSIT_CRYPTO_EXTERNAL')
  query =
    'id' in where ? query.where('t.id', '=', where.id) : query.where('t.tx_hash', '=', where.txHash)
  // FOR UPDATE OF t: the catalogue rows joined in are not ours to lock.
  return (lock ? query.forUpdate(['t']) : query).executeTakeFirst()
}

export type DepositRow = NonNullable<Awaited<ReturnType<typeof findDeposit>>>

export async function updateDeposit(
  trx: Transaction<DB>,
  id: string,
  change: { status: TransactionStatus; confirmations: number },
  at: Date,
): Promise<void> {
  await trx
    .updateTable('wallet_transactions')
    .set({ ...change, updated_at: at })
    .where('id', '=', id)
    .execute()
}
