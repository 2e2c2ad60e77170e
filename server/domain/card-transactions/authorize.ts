import { sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { merchantCategoryOf } from '../../../contract/merchant-categories.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { CardCrypto } from '../cards/card-crypto.ts'
import { storedControls } from '../cards/controls-rules.ts'
import { setWrongCodes } from '../cards/repository.ts'
import { consumeOtp } from '../cards/service.ts'
import { lockFiatAccount } from '../fiat-accounts/account-records.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import type { MoneyTransaction } from '../ledger/money-command.ts'
import { balanceOf, openSubAccount } from '../ledger/service.ts'
import { emitCardEvent } from './card-events.ts'
import { cardAuthorized } from './card-feed.ts'
import { type CategorySpent, categoryWindows, controlDecline } from './controls.ts'
import { bodyFault, type Stamped } from './network-message.ts'
import * as repo from './repository.ts'
import {
  dayStart,
  decide,
  holdPostings,
  monthStart,
  type ThreeDsResult,
  threeDsLocked,
} from './rules.ts'

/**
 * An AUTHORIZATION, in its message's money command, the card row locked:
 * the fiat account row is locked next (so the account's balance is spent
 * one authorisation at a time), the 3-D Secure code, the card's status,
 * controls (issue 30), limits and the balance decide (rules.ts decide), and
 * an approval moves the amount from the account's sub-account to its hold
 * sub-account (opened on first use; entry `card_tx:<authorization>:hold`).
 * A decline is recorded too, moves no money, and is told like an approval.
 * Answers the record's id.
 * @throws CardTransactionError MERCHANT_REQUIRED (never a decline)
 */
export async function authorize(
  money: MoneyTransaction,
  crypto: CardCrypto,
  card: repo.ProcessingCard,
  message: Stamped,
  amount: bigint,
  now: Date,
): Promise<string> {
  const { trx } = money
  if (!message.merchant)
    throw bodyFault('MERCHANT_REQUIRED', 'merchant', 'An authorisation names its merchant.')
  const merchant = message.merchant
  const channel = message.channel ?? 'chip'
  const account = await lockFiatAccount(trx, card.fiat_account_id)
  const controls = storedControls(card.controls)
  const decision = decide({
    threeDs: await checkThreeDs(trx, crypto, card, message.three_ds_code, now),
    cardStatus: card.status,
    accountStatus: card.account_status,
    controls: controlDecline(
      controls,
      { channel, merchant, amount },
      await categorySpent(trx, card.id, controls, merchant.mcc, now),
      card.decimals,
    ),
    amount,
    balance: await balanceOf(trx, card.ledger_account_id, card.currency_uuid),
    limits: {
      per_transaction: BigInt(card.limit_per_transaction_minor),
      daily: BigInt(card.limit_daily_minor),
      monthly: BigInt(card.limit_monthly_minor),
    },
    spentToday: await repo.authorizedSince(trx, card.id, dayStart(now)),
    spentThisMonth: await repo.authorizedSince(trx, card.id, monthStart(now)),
  })
  const id = uuidv7()
  const activityId = uuidv7()
  const record = async (verdict: typeof decision) => {
    const declineReason = verdict.status === 'DECLINED' ? verdict.reason : null
    await repo.insertTransaction(trx, {
      id,
      card,
      type: 'AUTHORIZATION',
      status: verdict.status,
      amountMinor: amount,
      merchant,
      declineReason,
      exceededLimit: verdict.status === 'DECLINED' ? verdict.limit : null,
      authorizationId: null,
      message: message.stamp,
      activityId,
      channel,
      at: now,
    })
    await cardAuthorized(trx, {
      id: activityId,
      card,
      authorizationId: id,
      status: verdict.status,
      amountMinor: amount,
      merchant,
      declineReason,
      channel,
      at: now,
    })
    await emitCardEvent(
      money,
      card,
      verdict.status === 'DECLINED' ? 'card.authorization.declined' : 'card.authorization.approved',
      { transactionId: id, amountMinor: amount, merchant, at: now, reason: declineReason, channel },
    )
  }
  if (decision.status === 'DECLINED') {
    await record(decision)
    return id
  }
  let hold = account.hold_ledger_account_id
  if (!hold) {
    hold = await openSubAccount(trx, card.tenant_id, card.wallet_id)
    await repo.setHoldAccount(trx, card.fiat_account_id, hold)
  }
  // Every spender of the account takes its lock first, so the balance read
  // above stands. Should one ever not, the ledger's guard refuses the hold:
  // that is a decline for the network, never a 500 (the savepoint undoes
  // the refused entry's rows, and only those; the command has posted nothing).
  await sql`savepoint card_hold`.execute(trx)
  try {
    await money.post({
      kind: 'card_hold',
      idempotencyKey: `card_tx:${id}:hold`,
      postings: holdPostings(
        { spendable: card.ledger_account_id, hold },
        card.currency_uuid,
        amount,
      ),
    })
    await sql`release savepoint card_hold`.execute(trx)
  } catch (error) {
    if (!isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) throw error
    await sql`rollback to savepoint card_hold`.execute(trx)
    await record({ status: 'DECLINED', reason: 'INSUFFICIENT_FUNDS', limit: null })
    return id
  }
  await record(decision)
  return id
}

/**
 * The authorisation's 3-D Secure step. A right code is spent and clears the
 * card's count of wrong ones; a wrong one is counted (the decline commits
 * with it); past the bound no code is checked, nor spent, nor counted.
 */
async function checkThreeDs(
  trx: Transaction<DB>,
  crypto: CardCrypto,
  card: repo.ProcessingCard,
  code: string | undefined,
  now: Date,
): Promise<ThreeDsResult> {
  if (code === undefined) return 'NOT_ASKED'
  const tries = { failures: card.three_ds_failures, since: card.three_ds_failed_since }
  if (threeDsLocked(tries, now)) return 'FAILED'
  if (await consumeOtp(trx, crypto, { cardId: card.id, code, now })) {
    if (tries.failures > 0) await setWrongCodes(trx, card.id, 'three_ds', undefined)
    return 'PASSED'
  }
  await setWrongCodes(trx, card.id, 'three_ds', { after: tries, now })
  return 'FAILED'
}

/**
 * What the card's payments in the merchant's category add up to today and
 * this month — read only when the card limits that category by day or month.
 */
async function categorySpent(
  trx: Transaction<DB>,
  cardId: string,
  controls: ReturnType<typeof storedControls>,
  mcc: string,
  now: Date,
): Promise<CategorySpent> {
  const category = merchantCategoryOf(mcc)
  if (categoryWindows(controls, category).length === 0) return { day: 0n, month: 0n }
  const rows = await repo.authorizedByMcc(trx, cardId, {
    month: monthStart(now),
    day: dayStart(now),
  })
  return rows
    .filter((row) => merchantCategoryOf(row.mcc) === category)
    .reduce((sum, row) => ({ day: sum.day + row.day, month: sum.month + row.month }), {
      day: 0n,
      month: 0n,
    })
}
