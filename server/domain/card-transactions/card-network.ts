import type { Kysely } from 'kysely'
import type { CardTransaction, ProcessorMessageBody } from '../../../contract/card-transactions.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { CardCrypto } from '../cards/card-crypto.ts'
import { IdempotencyConflictError } from '../idempotency.ts'
import type { MoneyTransaction } from '../ledger/money-command.ts'
import { runMoneyCommand } from '../ledger/money-command.ts'
import { authorize } from './authorize.ts'
import { type AfterClearing, followAuthorization } from './clear-reverse-refund.ts'
import { CardTransactionError } from './errors.ts'
import { bodyFault, messageHash, parseAmount, type Stamped } from './network-message.ts'
import { toCardTransaction } from './read-card-transactions.ts'
import * as repo from './repository.ts'

/**
 * The sandbox card network's processor. Each message is one money command
 * (ledger/money-command.ts): the card row is locked (so a card's limit sums
 * are read and written one authorisation at a time), then its fiat account
 * row, then the record is written with its keyed ledger entry and its event.
 * A decline is recorded and told too, and moves no money.
 *
 * The messages: an AUTHORIZATION (authorize.ts) holds the amount; a
 * CLEARING, REVERSAL or REFUND of it (clear-reverse-refund.ts) ends the hold
 * or gives money back.
 *
 * 3-D Secure: an authorisation's `three_ds_code` must be the card's current
 * one-time code (cards service consumeOtp spends it); `crypto` keys its hash.
 *
 * `afterClearing` runs in a clearing's transaction, once the card's account
 * holds what is left: the composition root hands in auto top-up's trigger
 * (auto-top-up/run-auto-top-up.ts), which sits above the card network.
 */
export class CardProcessor {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly crypto: CardCrypto,
    private readonly afterClearing: AfterClearing = async () => {},
  ) {}

  /** @throws CardTransactionError (422/409 failures of the message; never a decline) */
  async process(message: ProcessorMessageBody, now: Date = new Date()): Promise<CardTransaction> {
    return (await this.receive(message, now)).transaction
  }

  /**
   * The message's record; `replayed` when the message carried a
   * network_message_id this card's record was stored under already (the same
   * message again: nothing moves). The id is the money command's claim: two
   * copies queue on it; the card's row lock orders messages.
   * @throws CardTransactionError as process, and IDEMPOTENCY_CONFLICT (the id with another message)
   */
  async receive(
    message: ProcessorMessageBody,
    now: Date = new Date(),
  ): Promise<{ transaction: CardTransaction; replayed: boolean }> {
    const card = await repo.findCardForProcessing(this.db, message.card_id)
    if (!card) throw bodyFault('UNKNOWN_CARD', 'card_id', 'No such card.')
    const networkId = message.network_message_id
    // The hash reads the amount in the card's decimals: a card's currency never changes.
    const hash = networkId === undefined ? '' : messageHash(message, card.decimals, this.crypto)
    let received: { answer: { id: string }; replayed: boolean }
    try {
      received = await runMoneyCommand(this.db, {
        name: `card_network.${message.type.toLowerCase()}`,
        tenantId: card.tenant_id,
        claim: { scope: 'card_message', ownerId: card.id, key: networkId, hash },
        execute: async (money) => {
          const locked = await repo.findCardForProcessing(money.trx, card.id, { lock: true })
          if (!locked) throw bodyFault('UNKNOWN_CARD', 'card_id', 'No such card.')
          const stamp = networkId === undefined ? undefined : { id: networkId, hash }
          return { id: await this.#handle(money, locked, { ...message, stamp }, now) }
        },
      })
    } catch (error) {
      if (error instanceof IdempotencyConflictError) {
        throw new CardTransactionError({ kind: 'IDEMPOTENCY_CONFLICT' })
      }
      throw error
    }
    // The record as it is now: a replay answers the message's record, not a stored copy.
    const row = await repo.findTransactionById(this.db, received.answer.id)
    if (!row) throw new Error(`card transaction ${received.answer.id} vanished`)
    return { transaction: toCardTransaction(row), replayed: received.replayed }
  }

  async #handle(
    money: MoneyTransaction,
    card: repo.ProcessingCard,
    message: Stamped,
    now: Date,
  ): Promise<string> {
    if (message.currency.trim().toUpperCase() !== card.currency) {
      throw bodyFault('CURRENCY_MISMATCH', 'currency', `The card's account is in ${card.currency}.`)
    }
    const amount = parseAmount(message.amount, card.decimals)
    if (message.type === 'AUTHORIZATION') {
      return authorize(money, this.crypto, card, message, amount, now)
    }
    if (message.three_ds_code !== undefined) {
      throw bodyFault(
        'THREE_DS_NOT_APPLICABLE',
        'three_ds_code',
        'Only an authorisation carries a 3-D Secure code.',
      )
    }
    if (message.channel !== undefined) {
      throw bodyFault(
        'CHANNEL_NOT_APPLICABLE',
        'channel',
        'Only an authorisation says how the card was presented.',
      )
    }
    if (!message.authorization_id) {
      throw bodyFault('AUTHORIZATION_REQUIRED', 'authorization_id', `${message.type} needs one.`)
    }
    const authorization = await repo.lockAuthorization(money.trx, card.id, message.authorization_id)
    if (!authorization) {
      throw bodyFault(
        'AUTHORIZATION_NOT_FOUND',
        'authorization_id',
        'No such authorisation of this card.',
      )
    }
    const followUp = { ...message, type: message.type }
    return followAuthorization(
      money,
      this.afterClearing,
      card,
      authorization,
      followUp,
      amount,
      now,
    )
  }
}
