/**
 * The feed's writers. Each is called by the area that moves the money, inside
 * the transaction that moves it, so an item exists exactly when its money
 * moved and says what the money did; none opens a transaction of its own.
 * An item is found again by its source (order, card authorisation, deposit
 * record, card), so a step repeated after a crash changes nothing twice.
 */
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ActivityEventCode, ActivityStatus } from '../../../contract/activity.ts'
import type { CardChannel, DisputeStatus } from '../../../contract/card-choices.ts'
import type { CardFeeKind, Merchant } from '../../../contract/card-transactions.ts'
import type { TransactionStatus } from '../../../contract/wallets.ts'
import type { DB, StoredActivityEvent } from '../../infra/db/schema.ts'
import type { OrderRow } from '../orders/repository.ts'
import { railOf } from '../orders/rules.ts'
import type { NewActivity } from './repository.ts'
import * as repo from './repository.ts'
import {
  afterRefund,
  authorizationActivityStatus,
  depositActivityStatus,
  orderActivityStatus,
  orderShape,
} from './rules.ts'

type Trx = Transaction<DB>
type Executor = Kysely<DB> | Trx
type Order = Pick<
  OrderRow,
  | 'id'
  | 'tenant_id'
  | 'user_id'
  | 'wallet_id'
  | 'order_type'
  | 'status'
  | 'from_currency_uuid'
  | 'to_currency_uuid'
  | 'amount_from_minor'
  | 'amount_to_minor'
  | 'rate'
  | 'fees'
  | 'target'
  | 'payee'
  | 'fiat_account_id'
  | 'deposit_reference'
  | 'tx_hash'
  | 'note'
  | 'failure_code'
  | 'created_at'
>

/** The items an order's records belong to: the payer's (`source`) and, where money lands, `target`'s. */
export interface OrderActivities {
  source: string
  target: string
}

const event = (
  status: ActivityStatus,
  code: ActivityEventCode,
  at: Date,
  amountMinor: bigint | null = null,
): StoredActivityEvent => ({
  status,
  code,
  at: at.toISOString(),
  amount_minor: amountMinor === null ? null : amountMinor.toString(),
})

const orderRef = (order: Pick<Order, 'tenant_id' | 'id'>) =>
  ({ tenant_id: order.tenant_id, source_type: 'order', source_id: order.id }) as const

/** Where an exchange's proceeds or an internal transfer land (an exchange defaults to its own wallet). */
const landsIn = (order: Order) => order.target.wallet_uuid ?? order.wallet_id

// ---------------------------------------------------------------------------
// Orders

/**
 * The payer's item, written with the order: a deposit, a send, a transfer
 * between their own wallets, an exchange or a card top-up. Built before the
 * placing transaction from what does not change under it (who holds the
 * target wallet, the counterparty's name, the stand-alone card a top-up is
 * for), and inserted with the order in
 * one statement (orders/repository.ts insertPlacedOrder).
 */
export async function orderPlacedItem(
  db: Executor,
  order: Order,
  at: Date,
): Promise<NewActivity & { id: string }> {
  const rail = railOf(order.order_type, order.target)
  const lands = landsIn(order)
  const ownTarget =
    rail !== 'wallet' ||
    (await repo.walletHolder(db, order.tenant_id, lands))?.user_id === order.user_id
  const shape = orderShape(
    rail,
    {
      amountFrom: BigInt(order.amount_from_minor),
      amountTo: BigInt(order.amount_to_minor),
      fees: order.fees,
    },
    ownTarget,
  )
  const converts = order.from_currency_uuid !== order.to_currency_uuid
  const { payee, target } = order
  const fiatAccountId = order.fiat_account_id ?? target.fiat_account_id
  const card = fiatAccountId
    ? await repo.standAloneCard(db, order.tenant_id, fiatAccountId)
    : undefined
  const counterparty =
    payee?.kind === 'bank_account'
      ? payee.beneficiary
      : target.counterparty_account_id
        ? await repo.counterpartyName(db, order.tenant_id, target.counterparty_account_id)
        : null
  return {
    id: uuidv7(),
    tenant_id: order.tenant_id,
    user_id: order.user_id,
    type: shape.type,
    status: orderActivityStatus(order.status),
    direction: shape.direction,
    source_type: 'order',
    source_id: order.id,
    order_type: order.order_type,
    wallet_id: order.wallet_id,
    counter_wallet_id: shape.direction === 'own' && lands !== order.wallet_id ? lands : null,
    fiat_account_id: fiatAccountId,
    card_id: card?.id ?? null,
    card_last4: card?.last4 ?? null,
    currency_uuid: shape.type === 'deposit' ? order.to_currency_uuid : order.from_currency_uuid,
    amount_minor: shape.amount.toString(),
    fee_minor: shape.fee.toString(),
    received_currency_uuid: shape.received === null ? null : order.to_currency_uuid,
    received_minor: shape.received?.toString() ?? null,
    rate: converts ? order.rate : null,
    counterparty_name: counterparty,
    address: payee?.kind === 'bank_account' ? payee.iban : target.address,
    reference: order.deposit_reference,
    tx_hash: order.tx_hash,
    note: order.note,
    failure_code: order.failure_code,
    created_at: order.created_at,
    updated_at: at,
  }
}

/** The order moved (its status, a failure, a broadcast's hash): every item of it follows. */
export async function orderMoved(trx: Trx, order: Order, at: Date): Promise<void> {
  await repo.updateBySource(trx, orderRef(order), {
    status: orderActivityStatus(order.status),
    ...(order.failure_code !== null && { failure_code: order.failure_code }),
    ...(order.tx_hash !== null && { tx_hash: order.tx_hash }),
    updated_at: at,
  })
}

/**
 * The order completed: money that reached another person's wallet is their
 * `receive` item, written now (it shows there only once it has arrived, like
 * their record). Answers the items the completion's records belong to.
 */
export async function orderCompleted(trx: Trx, order: Order, at: Date): Promise<OrderActivities> {
  const payer = await repo.findBySource(trx, { ...orderRef(order), user_id: order.user_id })
  if (!payer) throw new Error(`order ${order.id} has no activity`)
  if (railOf(order.order_type, order.target) !== 'wallet') {
    return { source: payer.id, target: payer.id }
  }
  const holder = await repo.walletHolder(trx, order.tenant_id, landsIn(order))
  if (!holder || holder.user_id === order.user_id) return { source: payer.id, target: payer.id }
  const received = await repo.insertActivity(trx, {
    id: uuidv7(),
    tenant_id: order.tenant_id,
    user_id: holder.user_id,
    type: 'receive',
    status: 'complete',
    direction: 'in',
    source_type: 'order',
    source_id: order.id,
    order_type: order.order_type,
    wallet_id: holder.id,
    currency_uuid: order.to_currency_uuid,
    amount_minor: order.amount_to_minor,
    counterparty_name: await repo.personName(trx, order.user_id),
    // The payer's note reaches the payee, as a bank payout's reference reaches their statement.
    note: order.note,
    timeline: JSON.stringify([event('complete', 'DELIVERED_TO_WALLET', at)]),
    created_at: at,
    updated_at: at,
  })
  return { source: payer.id, target: received }
}

/** A bank deposit's transfer arrived: who sent it, from which account. */
export async function depositSender(
  trx: Trx,
  order: Order,
  sender: { name: string | null; iban: string | null },
): Promise<void> {
  if (sender.name === null && sender.iban === null) return
  await repo.updateBySource(trx, orderRef(order), {
    ...(sender.name !== null && { counterparty_name: sender.name }),
    ...(sender.iban !== null && { address: sender.iban }),
  })
}

// ---------------------------------------------------------------------------
// Crypto deposits

export interface CryptoDeposit {
  /** The item's id, chosen by the caller (its record refers to it). */
  id: string
  tenantId: string
  userId: string
  walletId: string
  /** The deposit's wallet record. */
  recordId: string
  currencyUuid: string
  amountMinor: bigint
  address: string
  txHash: string
  at: Date
}

/** A deposit seen arriving at one of the wallet's addresses. */
export async function cryptoDepositDetected(trx: Trx, deposit: CryptoDeposit): Promise<void> {
  await repo.insertActivity(trx, {
    id: deposit.id,
    tenant_id: deposit.tenantId,
    user_id: deposit.userId,
    type: 'deposit',
    status: 'pending',
    direction: 'in',
    source_type: 'wallet_transaction',
    source_id: deposit.recordId,
    wallet_id: deposit.walletId,
    currency_uuid: deposit.currencyUuid,
    amount_minor: deposit.amountMinor.toString(),
    address: deposit.address,
    tx_hash: deposit.txHash,
    confirmations: 0,
    timeline: JSON.stringify([event('pending', 'DETECTED', deposit.at)]),
    created_at: deposit.at,
    updated_at: deposit.at,
  })
}

/** One more block for a deposit; CONFIRMED on its timeline when it completes. */
export async function cryptoDepositProgress(
  trx: Trx,
  progress: {
    tenantId: string
    recordId: string
    status: TransactionStatus
    confirmations: number
    required: number
    at: Date
  },
): Promise<void> {
  const status = depositActivityStatus(progress.status)
  await repo.updateBySource(
    trx,
    {
      tenant_id: progress.tenantId,
      source_type: 'wallet_transaction',
      source_id: progress.recordId,
    },
    {
      status,
      confirmations: progress.confirmations,
      required_confirmations: progress.required,
      updated_at: progress.at,
    },
    status === 'complete' ? event(status, 'CONFIRMED', progress.at) : undefined,
  )
}

// ---------------------------------------------------------------------------
// Cards

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

const onCard = async (trx: Trx, card: CardRef) => ({
  tenant_id: card.tenant_id,
  user_id: card.user_id,
  wallet_id: card.wallet_id,
  card_id: card.id,
  fiat_account_id: card.fiat_account_id,
  card_last4: card.last4 ?? (await repo.cardLast4(trx, card.id)),
  currency_uuid: card.currency_uuid,
})

/** Where a card payment's item is found: by its authorisation. */
const paymentRef = (tenantId: string, authorizationId: string) =>
  ({
    tenant_id: tenantId,
    source_type: 'card_transaction',
    source_id: authorizationId,
    type: 'card_purchase',
  }) as const

/** A card payment's item, written with its authorisation, approved or declined. */
export async function cardAuthorized(
  trx: Trx,
  payment: {
    id: string
    card: CardRef
    authorizationId: string
    status: 'APPROVED' | 'DECLINED'
    amountMinor: bigint
    merchant: Merchant | null
    declineReason: string | null
    channel?: CardChannel
    at: Date
  },
): Promise<void> {
  const status = authorizationActivityStatus(payment.status)
  await repo.insertActivity(trx, {
    id: payment.id,
    ...(await onCard(trx, payment.card)),
    type: 'card_purchase',
    status,
    direction: 'out',
    source_type: 'card_transaction',
    source_id: payment.authorizationId,
    amount_minor: payment.amountMinor.toString(),
    merchant_name: payment.merchant?.name ?? null,
    merchant_mcc: payment.merchant?.mcc ?? null,
    merchant_city: payment.merchant?.city ?? null,
    merchant_country: payment.merchant?.country ?? null,
    failure_code: payment.declineReason,
    card_channel: payment.channel ?? null,
    timeline: JSON.stringify([
      event(status, status === 'declined' ? 'DECLINED' : 'AUTHORIZED', payment.at),
    ]),
    created_at: payment.at,
    updated_at: payment.at,
  })
}

/**
 * A clearing, reversal or refund, folded into its payment: a clearing sets
 * what was charged (the rest was released), a reversal ends it uncharged, a
 * refund adds to what came back. Answers the payment's item (the step's
 * records belong to it), or null for a payment the feed does not have.
 */
export async function cardPaymentFollowed(
  trx: Trx,
  step: {
    tenantId: string
    authorizationId: string
    type: 'CLEARING' | 'REVERSAL' | 'REFUND'
    amountMinor: bigint
    at: Date
  },
): Promise<string | null> {
  const ref = paymentRef(step.tenantId, step.authorizationId)
  const item = await repo.findBySource(trx, ref)
  if (!item) return null
  const amount = step.amountMinor
  if (step.type === 'CLEARING') {
    await repo.updateBySource(
      trx,
      ref,
      { status: 'complete', amount_minor: amount.toString(), updated_at: step.at },
      event('complete', 'CLEARED', step.at, amount),
    )
  } else if (step.type === 'REVERSAL') {
    await repo.updateBySource(
      trx,
      ref,
      { status: 'reversed', updated_at: step.at },
      event('reversed', 'REVERSED', step.at, amount),
    )
  } else {
    const refunded = BigInt(item.refunded_minor) + amount
    const status = afterRefund(BigInt(item.amount_minor), refunded)
    await repo.updateBySource(
      trx,
      ref,
      { status, refunded_minor: refunded.toString(), updated_at: step.at },
      event(status, 'REFUNDED', step.at, amount),
    )
  }
  return item.id
}

/**
 * A step of a card payment's dispute (issue 30), on the payment's item: the
 * dispute and where it stands, and any credit for it counted with what came
 * back (`credit` added; negative when a lost claim's credit is taken back).
 */
export async function cardPaymentDisputed(
  trx: Trx,
  step: {
    tenantId: string
    authorizationId: string
    disputeId: string
    status: DisputeStatus
    code: ActivityEventCode
    creditMinor: bigint
    at: Date
  },
): Promise<void> {
  const ref = paymentRef(step.tenantId, step.authorizationId)
  const item = await repo.findBySource(trx, ref)
  if (!item) return
  const refunded = BigInt(item.refunded_minor) + step.creditMinor
  const status = afterRefund(BigInt(item.amount_minor), refunded)
  await repo.updateBySource(
    trx,
    ref,
    {
      status,
      refunded_minor: refunded.toString(),
      dispute_id: step.disputeId,
      dispute_status: step.status,
      updated_at: step.at,
    },
    event(status, step.code, step.at, step.creditMinor === 0n ? null : abs(step.creditMinor)),
  )
}

const abs = (value: bigint) => (value < 0n ? -value : value)

/**
 * A card program's fee: from the card's account (source: its FEE card
 * transaction) or, for a stand-alone card's issue fee, from the wallet
 * (source: the card). A monthly fee the account could not pay is declined.
 */
export async function cardFeeCharged(
  trx: Trx,
  fee: {
    id: string
    card: CardRef
    source: { type: 'card_transaction' | 'card'; id: string }
    feeKind: CardFeeKind
    amountMinor: bigint
    paid: boolean
    at: Date
  },
): Promise<void> {
  const status = fee.paid ? 'complete' : 'declined'
  await repo.insertActivity(trx, {
    id: fee.id,
    ...(await onCard(trx, fee.card)),
    type: 'fee',
    status,
    direction: 'out',
    source_type: fee.source.type,
    source_id: fee.source.id,
    amount_minor: fee.amountMinor.toString(),
    fee_kind: fee.feeKind,
    failure_code: fee.paid ? null : 'INSUFFICIENT_FUNDS',
    timeline: JSON.stringify([event(status, fee.paid ? 'CHARGED' : 'DECLINED', fee.at)]),
    created_at: fee.at,
    updated_at: fee.at,
  })
}

/** What was left on a closed stand-alone card, back in the wallet. */
export async function cardBalanceReturned(
  trx: Trx,
  returned: { id: string; card: CardRef; amountMinor: bigint; at: Date },
): Promise<void> {
  await repo.insertActivity(trx, {
    id: returned.id,
    ...(await onCard(trx, returned.card)),
    type: 'card_balance_return',
    status: 'complete',
    direction: 'in',
    source_type: 'card',
    source_id: returned.card.id,
    amount_minor: returned.amountMinor.toString(),
    timeline: JSON.stringify([event('complete', 'RETURNED', returned.at)]),
    created_at: returned.at,
    updated_at: returned.at,
  })
}

/**
 * A SEPA credit that reached a fiat account's own IBAN: a deposit into the
 * account, from its sender (source: the account's DEPOSIT record).
 */
export async function accountCredited(
  trx: Trx,
  credit: {
    id: string
    account: { tenant_id: string; user_id: string; wallet_id: string; id: string }
    recordId: string
    currencyUuid: string
    amountMinor: bigint
    senderName: string | null
    remittance: string | null
    at: Date
  },
): Promise<void> {
  await repo.insertActivity(trx, {
    id: credit.id,
    tenant_id: credit.account.tenant_id,
    user_id: credit.account.user_id,
    wallet_id: credit.account.wallet_id,
    fiat_account_id: credit.account.id,
    currency_uuid: credit.currencyUuid,
    type: 'deposit',
    status: 'complete',
    direction: 'in',
    source_type: 'card_transaction',
    source_id: credit.recordId,
    amount_minor: credit.amountMinor.toString(),
    counterparty_name: credit.senderName,
    reference: credit.remittance,
    timeline: JSON.stringify([event('complete', 'TRANSFER_RECEIVED', credit.at)]),
    created_at: credit.at,
    updated_at: credit.at,
  })
}

// ---------------------------------------------------------------------------
// Transfers between people (issue 32): one item each, in each person's words

export interface PersonTransfer {
  tenantId: string
  transferId: string
  currencyUuid: string
  amountMinor: bigint
  note: string | null
  at: Date
}

/**
 * The sender's item: "To Anna S." — complete, or pending while it waits for
 * its contact to sign up (then named by the contact the sender typed).
 */
export async function transferSent(
  trx: Trx,
  sent: PersonTransfer & {
    id: string
    userId: string
    walletId: string
    recipientName: string
    awaitingClaim: boolean
  },
): Promise<string> {
  const status = sent.awaitingClaim ? 'pending' : 'complete'
  return repo.insertActivity(trx, {
    id: sent.id,
    tenant_id: sent.tenantId,
    user_id: sent.userId,
    type: 'send',
    status,
    direction: 'out',
    source_type: 'transfer',
    source_id: sent.transferId,
    wallet_id: sent.walletId,
    currency_uuid: sent.currencyUuid,
    amount_minor: sent.amountMinor.toString(),
    counterparty_name: sent.recipientName,
    note: sent.note,
    timeline: JSON.stringify([
      event(status, sent.awaitingClaim ? 'AWAITING_CLAIM' : 'SENT', sent.at),
    ]),
    created_at: sent.at,
    updated_at: sent.at,
  })
}

/** The recipient's item: "From Mia W.", with the sender's note. */
export async function transferReceived(
  trx: Trx,
  received: PersonTransfer & { id: string; userId: string; walletId: string; senderName: string },
): Promise<string> {
  return repo.insertActivity(trx, {
    id: received.id,
    tenant_id: received.tenantId,
    user_id: received.userId,
    type: 'receive',
    status: 'complete',
    direction: 'in',
    source_type: 'transfer',
    source_id: received.transferId,
    wallet_id: received.walletId,
    currency_uuid: received.currencyUuid,
    amount_minor: received.amountMinor.toString(),
    counterparty_name: received.senderName,
    note: received.note,
    timeline: JSON.stringify([event('complete', 'DELIVERED_TO_WALLET', received.at)]),
    created_at: received.at,
    updated_at: received.at,
  })
}

/**
 * A claimable transfer ended: claimed (the sender's item completes, named
 * now as the recipient shows themselves) or back with the sender (failed,
 * NOT_CLAIMED). Answers the sender's item.
 */
export async function transferSettled(
  trx: Trx,
  settled: { tenantId: string; transferId: string; at: Date } & (
    | { outcome: 'claimed'; recipientName: string }
    | { outcome: 'returned' }
  ),
): Promise<string> {
  const ref = {
    tenant_id: settled.tenantId,
    source_type: 'transfer',
    source_id: settled.transferId,
    type: 'send',
  } as const
  const item = await repo.findBySource(trx, ref)
  if (!item) throw new Error(`transfer ${settled.transferId} has no activity`)
  if (settled.outcome === 'claimed') {
    await repo.updateBySource(
      trx,
      ref,
      { status: 'complete', counterparty_name: settled.recipientName, updated_at: settled.at },
      event('complete', 'CLAIMED', settled.at),
    )
  } else {
    await repo.updateBySource(
      trx,
      ref,
      { status: 'failed', failure_code: 'NOT_CLAIMED', updated_at: settled.at },
      event('failed', 'RETURNED', settled.at),
    )
  }
  return item.id
}
