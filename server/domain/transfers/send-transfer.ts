import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import { CLAIM_DAYS, type Transfer, type TransferTarget } from '../../../contract/transfers.ts'
import type { DB } from '../../infra/db/schema.ts'
import { enqueue } from '../../infra/jobs.ts'
import { canonicalHash, IdempotencyConflictError } from '../idempotency.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { type MoneyTransaction, runMoneyCommand } from '../ledger/money-command.ts'
import { type WalletAccounts, walletAccounts } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { TransferError } from './errors.ts'
import * as repo from './repository.ts'
import {
  type Addressee,
  addresseeOf,
  claimDeadline,
  contactLabel,
  displayName,
  routeOf,
  transferLegs,
} from './rules.ts'
import * as activity from './transfer-feed.ts'
import { toTransfer } from './view.ts'

/** The job that invites a claimable transfer's contact, or pays them if they are a customer. */
export const CLAIM_DELIVERY_JOB = 'transfers.deliver_claimable'
/** The job, due when a claimable transfer expires, that gives it back if nobody claimed it. */
export const CLAIM_RETURN_JOB = 'transfers.return_unclaimed'

export interface SendInput {
  to: TransferTarget
  walletUuid: string
  currencyUuid: string
  amount: string
  note?: string | undefined
  requestId: string
}

/**
 * What paying a payment request adds to a transfer: its own row claimed in
 * the transaction (before the balance locks) and the requester's event
 * instead of `transfer.received` (payment-requests/service.ts).
 */
export interface RequestPayment {
  id: string
  /** Marks the request paid by this transfer; throws when it is not payable any more. */
  claim: (trx: Transaction<DB>, transferId: string) => Promise<void>
}

/** Everything the transaction writes, read and decided before it. */
interface Plan {
  owner: Owner
  transferId: string
  walletId: string
  currency: repo.CurrencyRow
  amountMinor: bigint
  note: string | null
  sender: { name: string; accounts: WalletAccounts }
  recipient:
    | { kind: 'direct'; userId: string; name: string; walletId: string; accounts: WalletAccounts }
    | { kind: 'claimable'; addressee: Extract<Addressee, { kind: 'contact' }>; label: string }
  request: RequestPayment | undefined
  now: Date
}

/**
 * Sends money from one person to another of the tenant as ONE money command
 * (ledger/money-command.ts) under the client's `request_id` (scope
 * `transfer`): the same key and body answer the first transfer again.
 * Straight to a customer who may be found (COMPLETE), else held in the
 * sender wallet's `held` account for the contact to claim (AWAITING_CLAIM).
 * @throws TransferError (every kind but TRANSFER_NOT_FOUND), WalletError WALLET_NOT_FOUND
 */
export async function sendTransfer(
  db: Kysely<DB>,
  owner: Owner,
  input: SendInput,
  options: { request?: RequestPayment; now?: Date } = {},
): Promise<{ transfer: Transfer; replayed: boolean }> {
  const now = options.now ?? new Date()
  try {
    const { answer, replayed } = await runMoneyCommand(db, {
      name: 'transfers.send',
      tenantId: owner.tenantId,
      claim: {
        scope: 'transfer',
        ownerId: owner.userId,
        key: input.requestId,
        hash: hashOf(input, options.request),
      },
      prepare: () => plan(db, owner, input, options.request, now),
      execute: write,
    })
    return { transfer: answer, replayed }
  } catch (error) {
    if (error instanceof IdempotencyConflictError) {
      throw new TransferError({ kind: 'IDEMPOTENCY_CONFLICT' })
    }
    throw error
  }
}

const hashOf = (input: SendInput, request: RequestPayment | undefined) =>
  canonicalHash({
    to: input.to,
    wallet: input.walletUuid.toLowerCase(),
    currency: input.currencyUuid.toLowerCase(),
    amount: input.amount,
    note: input.note ?? null,
    request: request?.id ?? null,
  })

async function plan(
  db: Kysely<DB>,
  owner: Owner,
  input: SendInput,
  request: RequestPayment | undefined,
  now: Date,
): Promise<Plan> {
  const addressee = addresseeOf(input.to)
  if (!('kind' in addressee)) throw new TransferError({ kind: 'TRANSFER_INVALID', ...addressee })
  const wallet = await findWallet(db, owner, input.walletUuid)
  if (!wallet) throw walletNotFound()
  const currency = await repo.findCurrency(db, input.currencyUuid)
  if (!currency) throw new TransferError({ kind: 'CURRENCY_NOT_FOUND' })
  const amountMinor = amountOf(input.amount, currency.decimals)
  const person = await repo.findPerson(db, owner.tenantId, addressee)
  if (person?.id === owner.userId) throw new TransferError({ kind: 'CANNOT_PAY_YOURSELF' })
  const usable = person && person.blocked_at === null ? person : undefined
  const route = routeOf(
    addressee,
    usable && {
      userId: usable.id,
      discoverable: usable.people_discoverable,
      // A requester asked this payer to pay them: their link names them.
      knownToSender:
        addressee.kind === 'user' &&
        (request !== undefined ||
          (await repo.paidBefore(db, owner.tenantId, owner.userId, usable.id))),
    },
  )
  if (route === 'NOT_FOUND') throw new TransferError({ kind: 'RECIPIENT_NOT_FOUND' })
  const senderFacts = await repo.findPerson(db, owner.tenantId, {
    kind: 'user',
    userId: owner.userId,
  })
  const accounts = await requireAccounts(db, owner.tenantId, wallet.id)
  const base = {
    owner,
    transferId: uuidv7(),
    walletId: wallet.id,
    currency,
    amountMinor,
    note: input.note?.trim() || null,
    sender: { name: senderFacts ? displayName(senderFacts) : '—', accounts },
    request,
    now,
  }
  if (route.kind === 'direct') {
    const walletId = await repo.receivingWallet(db, owner.tenantId, route.userId)
    if (!walletId) throw new TransferError({ kind: 'RECIPIENT_NOT_FOUND' })
    return {
      ...base,
      recipient: {
        kind: 'direct',
        userId: route.userId,
        name: displayName(usable!),
        walletId,
        accounts: await requireAccounts(db, owner.tenantId, walletId),
      },
    }
  }
  // Only a contact can be claimable: routeOf answers NOT_FOUND for an id.
  const contact = addressee as Extract<Addressee, { kind: 'contact' }>
  return {
    ...base,
    recipient: {
      kind: 'claimable',
      addressee: contact,
      label: contactLabel(contact.channel, contact.value),
    },
  }
}

/** An amount in the currency's minor units, above zero. */
export function amountOf(amount: string, decimals: number): bigint {
  let minor: bigint
  try {
    minor = toMinor(amount, decimals)
  } catch (error) {
    if (!(error instanceof AmountError)) throw error
    throw new TransferError({
      kind: 'TRANSFER_INVALID',
      field: '/body/amount',
      message: `has more than ${decimals} decimal places`,
    })
  }
  if (minor <= 0n) {
    throw new TransferError({
      kind: 'TRANSFER_INVALID',
      field: '/body/amount',
      message: 'must be above zero',
    })
  }
  return minor
}

export async function requireAccounts(
  db: Kysely<DB> | Transaction<DB>,
  tenantId: string,
  walletId: string,
) {
  const accounts = await walletAccounts(db, tenantId, walletId)
  if (!accounts) throw new Error(`wallet ${walletId} has no ledger accounts`)
  return accounts
}

/**
 * The transaction: the transfer row (and a paid request's), the ONE entry —
 * the balance locks, taken last —, then both people's items and records, the
 * events, and a claimable transfer's two jobs.
 */
async function write(money: MoneyTransaction, plan: Plan): Promise<Transfer> {
  const { trx } = money
  const { owner, transferId: id, recipient, currency, amountMinor, now } = plan
  const direct = recipient.kind === 'direct' ? recipient : undefined
  const expiresAt = direct ? null : claimDeadline(now, CLAIM_DAYS)
  const row: repo.TransferRow = {
    id,
    tenant_id: owner.tenantId,
    sender_id: owner.userId,
    sender_wallet_id: plan.walletId,
    recipient_id: direct?.userId ?? null,
    recipient_wallet_id: direct?.walletId ?? null,
    currency_uuid: currency.uuid,
    amount_minor: amountMinor.toString(),
    note: plan.note,
    status: direct ? 'COMPLETE' : 'AWAITING_CLAIM',
    contact_channel: recipient.kind === 'claimable' ? recipient.addressee.channel : null,
    contact: recipient.kind === 'claimable' ? recipient.addressee.value : null,
    recipient_name: direct ? direct.name : (recipient as { label: string }).label,
    sender_name: plan.sender.name,
    payment_request_id: plan.request?.id ?? null,
    expires_at: expiresAt,
    created_at: now,
    settled_at: direct ? now : null,
  }
  await repo.insertTransfer(trx, row)
  if (plan.request) await plan.request.claim(trx, id)
  try {
    await money.post({
      kind: 'transfer',
      idempotencyKey: `transfer:${id}:${direct ? 'direct' : 'hold'}`,
      postings: transferLegs(
        direct ? 'direct' : 'hold',
        {
          senderWallet: plan.sender.accounts.user_wallet,
          senderHeld: plan.sender.accounts.held,
          recipientWallet: direct?.accounts.user_wallet,
        },
        currency.uuid,
        amountMinor,
      ),
    })
  } catch (error) {
    if (!isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) throw error
    throw new TransferError({
      kind: 'INSUFFICIENT_FUNDS',
      currency: currency.code,
      available: fromMinor(error.failure.balance, currency.decimals),
      needed: fromMinor(amountMinor, currency.decimals),
    })
  }

  const told = {
    tenantId: owner.tenantId,
    transferId: id,
    currencyUuid: currency.uuid,
    amountMinor,
    note: plan.note,
    at: now,
  }
  const sentItem = await activity.transferSent(trx, {
    ...told,
    id: uuidv7(),
    userId: owner.userId,
    walletId: plan.walletId,
    recipientName: row.recipient_name,
    awaitingClaim: !direct,
  })
  await repo.insertRecord(trx, {
    id: uuidv7(),
    tenantId: owner.tenantId,
    walletId: plan.walletId,
    type: 'withdrawal',
    status: direct ? 'complete' : 'pending',
    currencyUuid: currency.uuid,
    amountMinor,
    transferId: id,
    activityId: sentItem,
    at: now,
  })
  const amount = fromMinor(amountMinor, currency.decimals)
  const said = { transfer_id: id, amount, currency: currency.code, note: plan.note }
  await money.emit({
    userId: owner.userId,
    kind: 'transfer.sent',
    payload: {
      ...said,
      activity_id: sentItem,
      wallet_id: plan.walletId,
      to_name: row.recipient_name,
      status: direct ? 'COMPLETE' : 'AWAITING_CLAIM',
    },
  })
  if (direct) {
    const receivedItem = await delivered(money, row, told)
    if (plan.request) {
      await money.emit({
        userId: direct.userId,
        kind: 'payment_request.paid',
        payload: {
          ...said,
          activity_id: receivedItem,
          wallet_id: direct.walletId,
          payment_request_id: plan.request.id,
          payer_name: plan.sender.name,
        },
      })
    } else {
      await money.emit({
        userId: direct.userId,
        kind: 'transfer.received',
        payload: {
          ...said,
          activity_id: receivedItem,
          wallet_id: direct.walletId,
          from_name: plan.sender.name,
        },
      })
    }
  } else {
    await enqueue(trx, {
      kind: CLAIM_DELIVERY_JOB,
      tenantId: owner.tenantId,
      payload: { transfer_id: id },
    })
    await enqueue(trx, {
      kind: CLAIM_RETURN_JOB,
      tenantId: owner.tenantId,
      payload: { transfer_id: id },
      runAt: expiresAt!,
    })
  }
  return toTransfer(row, currency, owner.userId, sentItem)
}

/**
 * The money reached the recipient (at once, or by a claim): their item and
 * wallet record. Answers the item.
 */
export async function delivered(
  money: MoneyTransaction,
  row: Pick<
    repo.TransferRow,
    'id' | 'tenant_id' | 'recipient_id' | 'recipient_wallet_id' | 'sender_name'
  >,
  told: activity.PersonTransfer,
): Promise<string> {
  const item = await activity.transferReceived(money.trx, {
    ...told,
    id: uuidv7(),
    userId: row.recipient_id!,
    walletId: row.recipient_wallet_id!,
    senderName: row.sender_name,
  })
  await repo.insertRecord(money.trx, {
    id: uuidv7(),
    tenantId: row.tenant_id,
    walletId: row.recipient_wallet_id!,
    type: 'deposit',
    status: 'complete',
    currencyUuid: told.currencyUuid,
    amountMinor: told.amountMinor,
    transferId: row.id,
    activityId: item,
    at: told.at,
  })
  return item
}
