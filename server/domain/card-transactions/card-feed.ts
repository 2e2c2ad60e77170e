/**
 * A card payment's item in the feed: written with its authorisation, then
 * folded into by its clearing, reversal, refunds and dispute, each in the
 * transaction of that step. Found again by its authorisation, so a step
 * repeated after a crash changes nothing twice.
 */
import type { Transaction } from 'kysely'
import type { ActivityEventCode } from '../../../contract/activity.ts'
import type { CardChannel, DisputeStatus } from '../../../contract/card-choices.ts'
import type { Merchant } from '../../../contract/card-transactions.ts'
import type { DB } from '../../infra/db/schema.ts'
import { afterRefund, authorizationActivityStatus, timelineStep } from '../feed/rules.ts'
import * as feed from '../feed/store.ts'

type Trx = Transaction<DB>

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
    card: feed.CardRef
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
  await feed.insertActivity(trx, {
    id: payment.id,
    ...(await feed.onCard(trx, payment.card)),
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
      timelineStep(status, status === 'declined' ? 'DECLINED' : 'AUTHORIZED', payment.at),
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
  const item = await feed.findBySource(trx, ref)
  if (!item) return null
  const amount = step.amountMinor
  if (step.type === 'CLEARING') {
    await feed.updateBySource(
      trx,
      ref,
      { status: 'complete', amount_minor: amount.toString(), updated_at: step.at },
      timelineStep('complete', 'CLEARED', step.at, amount),
    )
  } else if (step.type === 'REVERSAL') {
    await feed.updateBySource(
      trx,
      ref,
      { status: 'reversed', updated_at: step.at },
      timelineStep('reversed', 'REVERSED', step.at, amount),
    )
  } else {
    const refunded = BigInt(item.refunded_minor) + amount
    const status = afterRefund(BigInt(item.amount_minor), refunded)
    await feed.updateBySource(
      trx,
      ref,
      { status, refunded_minor: refunded.toString(), updated_at: step.at },
      timelineStep(status, 'REFUNDED', step.at, amount),
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
  const item = await feed.findBySource(trx, ref)
  if (!item) return
  const refunded = BigInt(item.refunded_minor) + step.creditMinor
  const status = afterRefund(BigInt(item.amount_minor), refunded)
  await feed.updateBySource(
    trx,
    ref,
    {
      status,
      refunded_minor: refunded.toString(),
      dispute_id: step.disputeId,
      dispute_status: step.status,
      updated_at: step.at,
    },
    timelineStep(
      status,
      step.code,
      step.at,
      step.creditMinor === 0n ? null : abs(step.creditMinor),
    ),
  )
}

const abs = (value: bigint) => (value < 0n ? -value : value)
