import type { Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { fromMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { insertWalletRecord } from '../cards/repository.ts'
import { lockFiatAccount } from '../fiat-accounts/account-records.ts'
import type { MoneyTransaction } from '../ledger/money-command.ts'
import { systemAccount, walletAccounts } from '../ledger/service.ts'
import { emitCardEvent } from './card-events.ts'
import { cardPaymentFollowed } from './card-feed.ts'
import { CardTransactionError } from './errors.ts'
import { bodyFault, type Stamped } from './network-message.ts'
import * as repo from './repository.ts'
import {
  clearingPostings,
  type HoldAccounts,
  merchantOf,
  refundPostings,
  reversalPostings,
} from './rules.ts'

/** A clearing on a card's own account, as what follows it in its transaction reads it. */
export interface AccountCleared {
  /** The clearing's record: one clearing, one follow-up, however the message repeats. */
  id: string
  tenantId: string
  fiatAccountId: string
  ledgerAccountId: string
  currencyUuid: string
  at: Date
}
export type AfterClearing = (trx: Transaction<DB>, cleared: AccountCleared) => Promise<void>

type FollowUp = 'CLEARING' | 'REVERSAL' | 'REFUND'

/**
 * A CLEARING, REVERSAL or REFUND of `authorization` (locked), in its
 * message's money command: a clearing ends the hold (the cleared amount to
 * external, the rest back; `card_tx:<authorization>:clear`), a reversal
 * returns the whole hold (`card_tx:<authorization>:reverse`), a refund of a
 * settled payment comes from external (`card_tx:<refund>:refund`). Each is a
 * record on the payment's activity item and one event. Money back to an
 * account since CANCELED (its stand-alone card closed) goes to the wallet,
 * with a CARD_PROVIDER_REFUND record. `afterClearing` runs once a clearing
 * left the card's own account holding what is left. Answers the record's id.
 * @throws CardTransactionError AUTHORIZATION_NOT_OPEN, AUTHORIZATION_NOT_SETTLED,
 *   AMOUNT_EXCEEDS_AUTHORIZATION, AMOUNT_NOT_AUTHORIZED, AMOUNT_EXCEEDS_REFUNDABLE
 */
export async function followAuthorization(
  money: MoneyTransaction,
  afterClearing: AfterClearing,
  card: repo.ProcessingCard,
  authorization: repo.AuthorizationRow,
  message: Stamped & { type: FollowUp },
  amount: bigint,
  now: Date,
): Promise<string> {
  const { trx } = money
  const authorized = BigInt(authorization.amount_minor)
  const id = uuidv7()
  const merchant = message.merchant ?? merchantOf(authorization)
  /** The payment's activity item, which the step's records belong to (set by `record`). */
  let activityId: string | null = null
  const record = async (type: FollowUp) => {
    activityId = await cardPaymentFollowed(trx, {
      tenantId: card.tenant_id,
      authorizationId: authorization.id,
      type,
      amountMinor: amount,
      at: now,
    })
    await repo.insertTransaction(trx, {
      id,
      card,
      type,
      status: 'SETTLED',
      amountMinor: amount,
      merchant,
      declineReason: null,
      exceededLimit: null,
      authorizationId: authorization.id,
      message: message.stamp,
      activityId,
      at: now,
    })
    await emitCardEvent(money, card, EVENT_OF[type], {
      transactionId: id,
      amountMinor: amount,
      merchant,
      at: now,
    })
  }
  const account = await lockFiatAccount(trx, card.fiat_account_id)
  const destination = await releaseTo(trx, card, account.status)
  /** Money back to a CANCELED (closed stand-alone) account goes to the wallet, with its record. */
  const released = async (amountMinor: bigint) => {
    if (destination.toWallet && amountMinor > 0n) {
      await insertWalletRecord(trx, {
        id: uuidv7(),
        tenantId: card.tenant_id,
        walletId: card.wallet_id,
        recordType: 'CARD_PROVIDER_REFUND',
        currencyUuid: card.currency_uuid,
        amountMinor,
        cardId: card.id,
        activityId,
        at: now,
      })
    }
  }
  if (message.type === 'REFUND') {
    if (authorization.status !== 'SETTLED') {
      throw new CardTransactionError({
        kind: 'AUTHORIZATION_NOT_SETTLED',
        status: authorization.status,
      })
    }
    const { cleared, refunded } = await repo.settledAmounts(trx, authorization.id)
    if (amount > cleared - refunded) {
      throw bodyFault(
        'AMOUNT_EXCEEDS_REFUNDABLE',
        'amount',
        `At most ${fromMinor(cleared - refunded, card.decimals)} is left to refund.`,
      )
    }
    await record('REFUND')
    await money.post({
      kind: 'card_refund',
      idempotencyKey: `card_tx:${id}:refund`,
      postings: refundPostings(
        { spendable: destination.account, external: await external(trx, card) },
        card.currency_uuid,
        amount,
      ),
    })
    await released(amount)
    return id
  }
  if (authorization.status !== 'APPROVED') {
    throw new CardTransactionError({
      kind: 'AUTHORIZATION_NOT_OPEN',
      status: authorization.status,
    })
  }
  // An APPROVED authorisation always opened the hold account.
  if (!account.hold_ledger_account_id) throw new Error(`fiat account ${account.id} holds nothing`)
  const accounts: HoldAccounts = {
    spendable: destination.account,
    hold: account.hold_ledger_account_id,
    external: await external(trx, card),
  }
  if (message.type === 'CLEARING') {
    if (amount > authorized) {
      throw bodyFault(
        'AMOUNT_EXCEEDS_AUTHORIZATION',
        'amount',
        `At most the authorised ${fromMinor(authorized, card.decimals)} can be cleared.`,
      )
    }
    await record('CLEARING')
    await repo.setAuthorizationStatus(trx, authorization.id, 'SETTLED', now)
    await money.post({
      kind: 'card_clearing',
      idempotencyKey: `card_tx:${authorization.id}:clear`,
      postings: clearingPostings(accounts, card.currency_uuid, authorized, amount),
    })
    await released(authorized - amount)
    if (!destination.toWallet) {
      await afterClearing(trx, {
        id,
        tenantId: card.tenant_id,
        fiatAccountId: card.fiat_account_id,
        ledgerAccountId: card.ledger_account_id,
        currencyUuid: card.currency_uuid,
        at: now,
      })
    }
    return id
  }
  if (amount !== authorized) {
    throw bodyFault(
      'AMOUNT_NOT_AUTHORIZED',
      'amount',
      `A reversal releases the whole ${fromMinor(authorized, card.decimals)}.`,
    )
  }
  await record('REVERSAL')
  await repo.setAuthorizationStatus(trx, authorization.id, 'REVERSED', now)
  await money.post({
    kind: 'card_reversal',
    idempotencyKey: `card_tx:${authorization.id}:reverse`,
    postings: reversalPostings(accounts, card.currency_uuid, authorized),
  })
  await released(authorized)
  return id
}

// A reversal is told too (issue 28): the hold it releases is money the person can spend again.
const EVENT_OF = {
  CLEARING: 'card.transaction.settled',
  REVERSAL: 'card.authorization.reversed',
  REFUND: 'card.transaction.refunded',
} as const satisfies Record<FollowUp, Parameters<typeof emitCardEvent>[2]>

/**
 * Where released or refunded money goes: the account's sub-account, or —
 * once the account is CANCELED (its stand-alone card was closed and its
 * balance returned) — the wallet's available balance.
 */
async function releaseTo(
  trx: Transaction<DB>,
  card: repo.ProcessingCard,
  accountStatus: string,
): Promise<{ account: string; toWallet: boolean }> {
  if (accountStatus !== 'CANCELED') return { account: card.ledger_account_id, toWallet: false }
  const wallet = await walletAccounts(trx, card.tenant_id, card.wallet_id)
  if (!wallet) throw new Error(`wallet ${card.wallet_id} of card ${card.id} has no accounts`)
  return { account: wallet.user_wallet, toWallet: true }
}

const external = (trx: Transaction<DB>, card: repo.ProcessingCard) =>
  systemAccount(trx, card.tenant_id, 'external')
