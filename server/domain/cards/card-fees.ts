import { v7 as uuidv7 } from 'uuid'
import { cardFinished } from '../../../contract/cards.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import { insertOwnRecord, lockFiatAccount } from '../fiat-accounts/account-records.ts'
import { type MoneyTransaction, NothingToMove, runMoneyCommand } from '../ledger/money-command.ts'
import { transfer } from '../ledger/rules.ts'
import { balanceOf, systemAccount } from '../ledger/service.ts'
import type { CardDeps } from './card-deps.ts'
import { cardFeeCharged } from './card-feed.ts'
import * as jobRepo from './job-repository.ts'
import { anniversariesBy, anniversary, feePeriod } from './rules.ts'

/** A card's monthly program fee, on each monthly anniversary of its issue. */
export const CARD_MONTHLY_FEE_JOB = 'cards.monthly_fee'

/**
 * The monthly fee (job CARD_MONTHLY_FEE_JOB, payload `{card_id}`, due on
 * each monthly anniversary of the issue): the program's fee_monthly_minor
 * from the card's fiat account to the tenant's fees (key
 * `card:<id>:fee:<YYYY-MM>`) with a FEE record; when the account holds less,
 * a DECLINED FEE record (INSUFFICIENT_FUNDS) and nothing taken: the card is
 * not frozen, the fee is not charged later. Either way the person is told
 * (`card.fee.charged`, `paid` true or false): each period is a money command. Every anniversary come by that
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
  const due = await deps.db.transaction().execute(async (trx) => {
    const card = await jobRepo.lockCardForFee(trx, tenantId, cardId)
    if (!card || cardFinished(card.status)) return undefined
    const count = anniversariesBy(card.created_at, context.now)
    const done = await jobRepo.monthlyFeePeriods(trx, card.id)
    const periods: string[] = []
    if (BigInt(card.fee_monthly_minor) > 0n) {
      for (let n = 1; n <= count; n++) {
        const period = feePeriod(anniversary(card.created_at, n))
        if (!done.has(period)) periods.push(period)
      }
    }
    return { periods, next: anniversary(card.created_at, count + 1) }
  })
  if (!due) return undefined
  // Each period its own money command: one entry and one event each, oldest first.
  for (const period of due.periods) {
    await runMoneyCommand(deps.db, {
      name: 'cards.monthly_fee',
      tenantId,
      execute: (money) => chargeMonthlyFee(money, tenantId, cardId, period, context.now),
    })
  }
  return { again: due.next }
}

/**
 * One period's fee, read again under the locks (card → fiat account →
 * balances): a card closed or a period charged since the job looked is
 * nothing to move.
 */
async function chargeMonthlyFee(
  money: MoneyTransaction,
  tenantId: string,
  cardId: string,
  period: string,
  at: Date,
): Promise<void> {
  const { trx } = money
  const card = await jobRepo.lockCardForFee(trx, tenantId, cardId)
  if (!card || cardFinished(card.status)) throw new NothingToMove(undefined)
  await lockFiatAccount(trx, card.fiat_account_id)
  if ((await jobRepo.monthlyFeePeriods(trx, card.id)).has(period))
    throw new NothingToMove(undefined)
  const fee = BigInt(card.fee_monthly_minor)
  const balance = await balanceOf(trx, card.ledger_account_id, card.currency_uuid, {
    lock: true,
  })
  const paid = balance >= fee
  if (paid) {
    await money.post({
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
  if (!recorded) throw new NothingToMove(undefined)
  await cardFeeCharged(trx, {
    id: activityId,
    card,
    source: { type: 'card_transaction', id: recordId },
    feeKind: 'MONTHLY',
    amountMinor: fee,
    paid,
    at,
  })
  await money.emit({
    userId: card.user_id,
    kind: 'card.fee.charged',
    payload: {
      card_id: card.id,
      transaction_id: recordId,
      amount: fromMinor(fee, card.decimals),
      currency: card.currency,
      fee_kind: 'MONTHLY',
      paid,
    },
    at,
  })
}
