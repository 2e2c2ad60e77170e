import { timingSafeEqual } from 'node:crypto'
import type { Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Card } from '../../../contract/cards.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { type MoneyTransaction, runMoneyCommand } from '../ledger/money-command.ts'
import { transfer } from '../ledger/rules.ts'
import { balanceOf, walletAccounts } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import type { CardDeps } from './card-deps.ts'
import { cardBalanceReturned } from './card-feed.ts'
import { CardError } from './errors.ts'
import { getCard } from './read-cards.ts'
import * as repo from './repository.ts'
import { activationRetryAfter, type CardAction, deriveCvv, nextStatus } from './rules.ts'

/**
 * Freeze, unfreeze or close. Closing a stand-alone card also returns what is
 * left on its own fiat account to the wallet (ledger sub-account →
 * user_wallet, with a CARD_PROVIDER_REFUND record) and cancels the account,
 * in the same transaction. A card on a shared account leaves the money there.
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT
 */
export async function act(
  deps: CardDeps,
  owner: Owner,
  id: string,
  action: CardAction,
): Promise<Card> {
  const change = async (trx: Transaction<DB>) => {
    const card = await repo.lockCard(trx, owner, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    const next = nextStatus(card.status, action)
    if (!next.ok) throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: next.current })
    const now = deps.clock()
    await repo.setStatus(trx, card.id, next.status, now)
    return { card, now }
  }
  if (action !== 'close') {
    await deps.db.transaction().execute(change)
  } else {
    // Closing may move what is left back to the wallet, and is told either way.
    await runMoneyCommand(deps.db, {
      name: 'cards.close',
      tenantId: owner.tenantId,
      execute: async (money) => {
        const { card, now } = await change(money.trx)
        const returned = card.stand_alone ? await returnBalance(money, owner, card, now) : 0n
        await money.emit({
          userId: owner.userId,
          kind: 'card.closed',
          payload: {
            card_id: card.id,
            last4: card.last4,
            returned_amount: returned > 0n ? fromMinor(returned, card.decimals) : null,
            currency: card.currency,
          },
          at: now,
        })
      },
    })
  }
  return getCard(deps, owner, id)
}

/** A stand-alone card's balance back in its wallet; its account cancelled. Answers what moved. */
async function returnBalance(
  money: MoneyTransaction,
  owner: Owner,
  card: NonNullable<Awaited<ReturnType<typeof repo.lockCard>>>,
  now: Date,
): Promise<bigint> {
  const { trx } = money
  const balance = await balanceOf(trx, card.ledger_account_id, card.currency_uuid, {
    lock: true,
  })
  if (balance > 0n) {
    const wallet = await walletAccounts(trx, owner.tenantId, card.wallet_id)
    if (!wallet) throw new Error(`wallet ${card.wallet_id} of card ${card.id} has no accounts`)
    await money.post({
      kind: 'card_closed',
      idempotencyKey: `card:${card.id}:closed`,
      postings: transfer(card.ledger_account_id, wallet.user_wallet, card.currency_uuid, balance),
    })
    const activityId = uuidv7()
    await repo.insertWalletRecord(trx, {
      id: uuidv7(),
      tenantId: owner.tenantId,
      walletId: card.wallet_id,
      recordType: 'CARD_PROVIDER_REFUND',
      currencyUuid: card.currency_uuid,
      amountMinor: balance,
      cardId: card.id,
      activityId,
      at: now,
    })
    await cardBalanceReturned(trx, {
      id: activityId,
      card: { ...card, user_id: owner.userId },
      amountMinor: balance,
      at: now,
    })
  }
  await repo.setFiatAccountStatus(trx, card.fiat_account_id, 'CANCELED', now)
  return balance
}

/**
 * Activates a delivered PHYSICAL card: INACTIVE → ACTIVE when `cvv` is the
 * security code printed on it (derived from the stored number under the
 * CVK, compared in constant time) — what only the plastic carries, since
 * no answer shows it before activation. Wrong codes are counted on the card
 * row (committed, unlike the refusal): ACTIVATION_TRIES within
 * ACTIVATION_WINDOW_MS, then every try is refused until the window ends.
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT (not INACTIVE, or not
 *   physical), CARD_NOT_DELIVERED, ACTIVATION_RATE_LIMITED, ACTIVATION_CODE_INVALID
 */
export async function activate(
  deps: CardDeps,
  owner: Owner,
  id: string,
  cvv: string,
): Promise<Card> {
  const now = deps.clock()
  const refusal = await deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCard(trx, owner, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    const next = nextStatus(card.status, 'activate')
    if (!next.ok || card.form_factor !== 'PHYSICAL') {
      throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
    }
    if (card.delivery_status !== 'DELIVERED') {
      throw new CardError({ kind: 'CARD_NOT_DELIVERED', delivery: card.delivery_status })
    }
    const tries = { failures: card.activation_failures, since: card.activation_failed_since }
    const retryAfter = activationRetryAfter(tries, now)
    if (retryAfter !== undefined) {
      return new CardError({ kind: 'ACTIVATION_RATE_LIMITED', retryAfterSeconds: retryAfter })
    }
    const pan = deps.crypto.decryptPan(
      { tenantId: card.tenant_id, cardId: card.id },
      card.pan_ciphertext,
    )
    const printed = deriveCvv(deps.crypto.cvk, pan, {
      month: card.expiry_month,
      year: card.expiry_year,
    })
    if (!timingSafeEqual(Buffer.from(cvv.padEnd(3).slice(0, 3)), Buffer.from(printed))) {
      await repo.setWrongCodes(trx, card.id, 'activation', { after: tries, now })
      return new CardError({
        kind: 'ACTIVATION_CODE_INVALID',
        fault: { field: '/body/cvv', message: 'Not the security code printed on this card.' },
      })
    }
    await repo.setStatus(trx, card.id, next.status, now)
    return undefined
  })
  if (refusal) throw refusal
  return getCard(deps, owner, id)
}
