import type { Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { cardFinished } from '../../../contract/cards.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import { cardFeeCharged } from '../activity/record.ts'
import { insertOwnRecord, lockFiatAccount } from '../card-transactions/repository.ts'
import { transfer } from '../ledger/rules.ts'
import { balanceOf, post, systemAccount } from '../ledger/service.ts'
import type { CardDeps } from './card-deps.ts'
import * as repo from './repository.ts'
import { anniversariesBy, anniversary, feePeriod } from './rules.ts'

/** A card's monthly program fee, on each monthly anniversary of its issue. */
export const CARD_MONTHLY_FEE_JOB = 'cards.monthly_fee'

/**
 * The monthly fee (job CARD_MONTHLY_FEE_JOB, payload `{card_id}`, due on
 * each monthly anniversary of the issue): the program's fee_monthly_minor
 * from the card's fiat account to the tenant's fees (key
 * `card:<id>:fee:<YYYY-MM>`) with a FEE record; when the account holds less,
 * a DECLINED FEE record (INSUFFICIENT_FUNDS) and nothing else: the card is
 * not frozen, the fee is not charged later. Every anniversary come by that
 * has no record yet is charged (a runner that was down catches up). Stops
 * once the card is finished (closed or cancelled). Locks as the processor
 * does (card → fiat account → balances), so a fee and an authorisation on
 * a shared account never read one balance and both spend it.
 */
export async function chargeMonthly(
  deps: CardDeps,
  job: Job,
  context: JobContext,
): Promise<JobResult> {
  if (!job.tenantId) throw new Error(`monthly fee job ${job.id} has no tenant`)
  const tenantId = job.tenantId
  const cardId = String(job.payload.card_id)
  const next = await deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCardForFee(trx, tenantId, cardId)
    if (!card || cardFinished(card.status)) return undefined
    const issued = card.created_at
    const due = anniversariesBy(issued, context.now)
    const fee = BigInt(card.fee_monthly_minor)
    if (fee > 0n && due > 0) {
      await lockFiatAccount(trx, card.fiat_account_id)
      const done = await repo.monthlyFeePeriods(trx, card.id)
      for (let n = 1; n <= due; n++) {
        const period = feePeriod(anniversary(issued, n))
        if (!done.has(period)) await chargeMonthlyFee(trx, card, fee, period, context.now)
      }
    }
    return anniversary(issued, due + 1)
  })
  return next ? { again: next } : undefined
}

async function chargeMonthlyFee(
  trx: Transaction<DB>,
  card: NonNullable<Awaited<ReturnType<typeof repo.lockCardForFee>>>,
  fee: bigint,
  period: string,
  at: Date,
): Promise<void> {
  const balance = await balanceOf(trx, card.ledger_account_id, card.currency_uuid, {
    lock: true,
  })
  const paid = balance >= fee
  if (paid) {
    await post(trx, {
      tenantId: card.tenant_id,
      kind: 'card_fee',
      idempotencyKey: `card:${card.id}:fee:${period}`,
      postings: transfer(
        card.ledger_account_id,
        await systemAccount(trx, card.tenant_id, 'fees'),
        card.currency_uuid,
        fee,
      ),
    })
  }
  const recordId = uuidv7()
  const activityId = uuidv7()
  const recorded = await insertOwnRecord(trx, {
    id: recordId,
    activityId,
    tenantId: card.tenant_id,
    userId: card.user_id,
    cardId: card.id,
    fiatAccountId: card.fiat_account_id,
    walletId: card.wallet_id,
    currencyUuid: card.currency_uuid,
    amountMinor: fee,
    type: 'FEE',
    status: paid ? 'SETTLED' : 'DECLINED',
    feeKind: 'MONTHLY',
    feePeriod: period,
    at,
  })
  if (recorded) {
    await cardFeeCharged(trx, {
      id: activityId,
      card,
      source: { type: 'card_transaction', id: recordId },
      feeKind: 'MONTHLY',
      amountMinor: fee,
      paid,
      at,
    })
  }
}
