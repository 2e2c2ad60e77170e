import { randomUUID } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ChainId } from '../../../contract/catalog.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult, JobRunner } from '../../infra/jobs.ts'
import { isUuid } from '../../infra/uuid.ts'
import { labelledRecord } from '../feed/records.ts'
import { type MoneyTransaction, NothingToMove, runMoneyCommand } from '../ledger/money-command.ts'
import { transfer } from '../ledger/rules.ts'
import { systemAccount, walletAccounts } from '../ledger/service.ts'
import { cryptoDepositDetected, cryptoDepositProgress } from './deposit-feed.ts'
import { DepositError } from './errors.ts'
import * as repo from './repository.ts'
import {
  type DepositStep,
  isTxHash,
  nextDepositStep,
  requiredConfirmations,
  txHashFor,
} from './rules.ts'

/** The job that walks a sandbox deposit from new to complete, one block per run. */
export const DEPOSIT_JOB = 'sandbox.deposit'

export interface DepositRequest {
  /** From X-Tenant-Id when sent (lower-cased by infra/tenancy.ts); the wallet must be its. */
  tenantId?: string
  walletId: string
  chain: ChainId
  /** A currency uuid, or its code (any letter case) on `chain`. */
  currency: string
  amount: string
  /** One of the wallet's addresses on the chain; default its newest. */
  address?: string
  /** The chain's hash of the transfer; default drawn from `idempotencyKey`, else random. */
  txHash?: string
  idempotencyKey?: string
}

export interface SandboxChainSettings {
  /** Milliseconds between two blocks (one confirmation each). */
  blockMs: number
  maxConfirmations: number
}

/**
 * The sandbox chain provider's deposits. A deposit is a wallet transaction
 * (DEPOSIT_CRYPTO_EXTERNAL) and a job: the job's first run "sees" it on chain
 * (status pending; the money arrives in the wallet's pending account), each
 * later run is one more block, and at the required confirmations it completes
 * (the money moves from pending to available). Every step is one transaction
 * holding the record's row lock, gated on the status it leaves, and its ledger
 * entry carries the key `deposit:<uuid>:seen` or `deposit:<uuid>:confirmed`:
 * a step repeated after a crash finds nothing left to redo.
 */
export class DepositService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly jobs: Pick<JobRunner, 'enqueue'>,
    private readonly chain: SandboxChainSettings,
  ) {}

  /**
   * Records a deposit arriving at one of the wallet's addresses and starts
   * its walk. The same hash (or idempotency key) again answers the first
   * record, wherever its walk has got to.
   * @throws DepositError naming the field at fault, or IDEMPOTENCY_CONFLICT when the hash is
   *   another deposit's
   */
  async create(request: DepositRequest, now = new Date()): Promise<WalletTransaction> {
    const wallet = await repo.findWalletById(this.db, request.walletId)
    if (!wallet || (request.tenantId && wallet.tenant_id !== request.tenantId)) {
      throw new DepositError({
        kind: 'WALLET_NOT_FOUND',
        field: 'wallet_uuid',
        message: 'No such wallet.',
      })
    }
    const tenantId = wallet.tenant_id
    const currency = await this.#currency(request)
    const amount = parseAmount(request.amount, currency.decimals)
    const address = await this.#address(tenantId, wallet.id, request)
    const txHash = this.#txHash(tenantId, request)

    const id = await this.db.transaction().execute(async (trx) => {
      const activityId = uuidv7()
      const inserted = await repo.insertDeposit(trx, {
        id: uuidv7(),
        tenantId,
        walletId: wallet.id,
        currencyUuid: currency.uuid,
        amountMinor: amount,
        address,
        txHash,
        activityId,
        at: now,
      })
      if (!inserted) return undefined
      await cryptoDepositDetected(trx, {
        id: activityId,
        tenantId,
        userId: wallet.user_id,
        walletId: wallet.id,
        recordId: inserted.id,
        currencyUuid: currency.uuid,
        amountMinor: amount,
        address,
        txHash,
        at: inserted.created_at,
      })
      await this.jobs.enqueue(trx, {
        kind: DEPOSIT_JOB,
        tenantId,
        payload: { transaction_id: inserted.id },
      })
      return inserted.id
    })

    const row = await repo.findDeposit(this.db, id ? { tenantId, id } : { tenantId, txHash })
    if (!row) throw new Error(`deposit ${id ?? txHash} vanished`)
    const same =
      row.wallet_id === wallet.id &&
      row.currency_uuid === currency.uuid &&
      BigInt(row.amount_minor) === amount &&
      row.address === address
    if (!same) throw new DepositError({ kind: 'IDEMPOTENCY_CONFLICT' })
    return labelledRecord(this.db, tenantId, row)
  }

  /**
   * The job handler: one step of one deposit (see the class comment). The
   * steps that move money — seen, and the block that completes it — are each
   * a money command telling the person (deposit.detected, deposit.confirmed);
   * a block on the way moves none and tells nobody, a plain transaction.
   */
  readonly step = async (job: Job, context: JobContext): Promise<JobResult> => {
    const transactionId = String(job.payload.transaction_id)
    if (!job.tenantId) throw new Error(`deposit job ${job.id} has no tenant`)
    const tenantId = job.tenantId
    const where = { tenantId, id: transactionId }
    // Read without a lock to choose the kind of transaction; the step is read again under it.
    const peeked = await repo.findDeposit(context.db, where)
    if (!peeked) throw new Error(`deposit ${transactionId} not found`)
    const step = this.#next(peeked)
    if (step.kind === 'none') return undefined
    const walk = (trx: Transaction<DB>, money?: MoneyTransaction) =>
      this.#walk(trx, money, where, context.now)
    const finished = movesMoney(step)
      ? (
          await runMoneyCommand(context.db, {
            name: `deposits.${step.kind}`,
            tenantId,
            execute: (money) => walk(money.trx, money),
          })
        ).answer
      : await context.db.transaction().execute((trx) => walk(trx))
    if (finished) return undefined
    return { again: new Date(context.now.getTime() + this.chain.blockMs) }
  }

  #next(row: Pick<repo.DepositRow, 'status' | 'confirmations' | 'chain_confirmations'>) {
    const required = requiredConfirmations(
      row.chain_confirmations ?? 1,
      this.chain.maxConfirmations,
    )
    return { ...nextDepositStep(row.status, row.confirmations, required), required }
  }

  /**
   * The deposit's next step under its row lock, in `money`'s command when it
   * moves money. A step other than the one the transaction was chosen for
   * (another run took one meanwhile) waits for the next run. Answers whether
   * the walk is over.
   */
  async #walk(
    trx: Transaction<DB>,
    money: MoneyTransaction | undefined,
    where: { tenantId: string; id: string },
    now: Date,
  ): Promise<boolean> {
    const { tenantId } = where
    const row = await repo.findDeposit(trx, where, true)
    if (!row) throw new Error(`deposit ${where.id} not found`)
    const step = this.#next(row)
    if (step.kind === 'none' || movesMoney(step) !== (money !== undefined)) {
      if (money) throw new NothingToMove(step.kind === 'none')
      return step.kind === 'none'
    }
    const { required } = step
    if (!money) {
      // A block on the way: no money moves, nobody is told.
      const confirmations = step.kind === 'confirm' ? step.confirmations : 0
      await repo.updateDeposit(trx, row.id, { status: 'pending', confirmations }, now)
      await cryptoDepositProgress(trx, {
        tenantId,
        recordId: row.id,
        status: 'pending',
        confirmations,
        required,
        at: now,
      })
      return false
    }
    const accounts = await walletAccounts(trx, tenantId, row.wallet_id)
    const owner = await repo.findWalletById(trx, row.wallet_id)
    if (!accounts || !owner) throw new Error(`wallet ${row.wallet_id} has no ledger accounts`)
    const amount = BigInt(row.amount_minor)
    const seen = step.kind === 'seen'
    const status = seen ? 'pending' : 'complete'
    const confirmations = step.kind === 'confirm' ? step.confirmations : 0
    await repo.updateDeposit(trx, row.id, { status, confirmations }, now)
    await cryptoDepositProgress(trx, {
      tenantId,
      recordId: row.id,
      status,
      confirmations,
      required,
      at: now,
    })
    await money.emit({
      userId: owner.user_id,
      kind: seen ? 'deposit.detected' : 'deposit.confirmed',
      payload: {
        wallet_id: row.wallet_id,
        transaction_id: row.id,
        amount: fromMinor(amount, row.decimals),
        currency: row.currency,
        chain: row.chain ?? '',
        tx_hash: row.tx_hash ?? '',
      },
      at: now,
    })
    // Last: the balance rows stay locked from here to the commit.
    await money.post(
      seen
        ? {
            kind: 'deposit_seen',
            idempotencyKey: `deposit:${row.id}:seen`,
            postings: transfer(
              await systemAccount(trx, tenantId, 'external'),
              accounts.pending,
              row.currency_uuid,
              amount,
            ),
          }
        : {
            kind: 'deposit_confirmed',
            idempotencyKey: `deposit:${row.id}:confirmed`,
            postings: transfer(accounts.pending, accounts.user_wallet, row.currency_uuid, amount),
          },
    )
    return !seen
  }

  async #currency(request: DepositRequest) {
    const ref = request.currency.trim()
    const currency = await repo.findCurrency(
      this.db,
      isUuid(ref) ? { uuid: ref.toLowerCase() } : { code: ref.toUpperCase(), chain: request.chain },
    )
    if (!currency || currency.chain !== request.chain) {
      throw new DepositError({
        kind: 'CURRENCY_NOT_ON_CHAIN',
        field: 'currency',
        message: `${request.currency} is not a currency of ${request.chain}.`,
      })
    }
    return currency
  }

  async #address(tenantId: string, walletId: string, request: DepositRequest): Promise<string> {
    const addresses = await repo.findWalletAddresses(this.db, tenantId, walletId, request.chain)
    if (request.address === undefined) {
      const newest = addresses[0]
      if (!newest) {
        throw new DepositError({
          kind: 'NO_DEPOSIT_ADDRESS',
          field: 'chain',
          message: `The wallet has no ${request.chain} address: create one first.`,
        })
      }
      return newest
    }
    // EVM addresses are case-insensitive (the mixed case is only a checksum).
    const evm = request.chain === 'ethereum' || request.chain === 'polygon'
    const wanted = evm ? request.address.toLowerCase() : request.address
    const found = addresses.find((a) => (evm ? a.toLowerCase() : a) === wanted)
    if (!found) {
      throw new DepositError({
        kind: 'UNKNOWN_ADDRESS',
        field: 'address',
        message: `${request.address} is not one of the wallet's ${request.chain} addresses.`,
      })
    }
    return found
  }

  #txHash(tenantId: string, request: DepositRequest): string {
    if (request.txHash !== undefined) {
      if (!isTxHash(request.chain, request.txHash)) {
        throw new DepositError({
          kind: 'INVALID_TX_HASH',
          field: 'tx_hash',
          message: `${request.txHash} is not a ${request.chain} transaction hash.`,
        })
      }
      return request.txHash
    }
    // The same key, the same hash: the unique (tenant, hash) index makes the replay.
    const material = request.idempotencyKey
      ? `${tenantId}:${request.chain}:${request.idempotencyKey}`
      : randomUUID()
    return txHashFor(request.chain, material)
  }
}

/** Seen (the money arrives, pending) and the block that completes it move money; the rest do not. */
const movesMoney = (step: DepositStep) =>
  step.kind === 'seen' || (step.kind === 'confirm' && step.complete)

function parseAmount(amount: string, decimals: number): bigint {
  let minor: bigint
  try {
    minor = toMinor(amount, decimals)
  } catch (error) {
    if (error instanceof AmountError) {
      throw new DepositError({ kind: 'INVALID_AMOUNT', field: 'amount', message: error.message })
    }
    throw error
  }
  if (minor <= 0n) {
    throw new DepositError({
      kind: 'INVALID_AMOUNT',
      field: 'amount',
      message: 'The amount must be above zero.',
    })
  }
  return minor
}
