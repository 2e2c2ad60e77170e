import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  CardTransaction,
  CardTransactionList,
  ProcessorMessageBody,
} from '../../../contract/card-transactions.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { insertRefundRecord } from '../cards/repository.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { openSubAccount, post, systemAccount, walletAccounts } from '../ledger/service.ts'
import { pageOf } from '../page.ts'
import type { Owner } from '../wallets/repository.ts'
import { CardTransactionError } from './errors.ts'
import * as repo from './repository.ts'
import {
  cardCsvHeader,
  cardCsvLine,
  clearingPostings,
  dayStart,
  decide,
  type HoldAccounts,
  holdPostings,
  monthStart,
  refundPostings,
  reversalPostings,
} from './rules.ts'

type Page = { limit: number; offset: number }

const bodyFault = (
  kind: Extract<CardTransactionError['failure'], { field: string }>['kind'],
  field: string,
  message: string,
) => new CardTransactionError({ kind, field: `/body/${field}`, message })

/**
 * The sandbox card network's processor. Each message is one database
 * transaction: the card row is locked (so a card's limit sums are read and
 * written one authorisation at a time), then its fiat account row, then the
 * record is written with its keyed ledger entry. A decline is recorded too,
 * and moves no money.
 *
 * Money: an approval moves the amount from the account's sub-account to its
 * hold sub-account (opened on first use); a clearing ends the hold (cleared
 * amount to external, the rest back); a reversal returns the hold; a refund
 * comes from external. Entry keys: `card_tx:<authorization>:hold|clear|reverse`,
 * `card_tx:<refund>:refund`.
 */
export class CardProcessor {
  constructor(private readonly db: Kysely<DB>) {}

  /** @throws CardTransactionError (422/409 failures of the message; never a decline) */
  async process(message: ProcessorMessageBody, now: Date = new Date()): Promise<CardTransaction> {
    const id = await this.db.transaction().execute(async (trx) => {
      const card = await repo.lockCardForProcessing(trx, message.card_id)
      if (!card) throw bodyFault('UNKNOWN_CARD', 'card_id', 'No such card.')
      if (message.currency.trim().toUpperCase() !== card.currency) {
        throw bodyFault(
          'CURRENCY_MISMATCH',
          'currency',
          `The card's account is in ${card.currency}.`,
        )
      }
      const amount = parseAmount(message.amount, card.decimals)
      if (message.type === 'AUTHORIZATION') return this.authorize(trx, card, message, amount, now)
      if (!message.authorization_id) {
        throw bodyFault('AUTHORIZATION_REQUIRED', 'authorization_id', `${message.type} needs one.`)
      }
      const authorization = await repo.lockAuthorization(trx, card.id, message.authorization_id)
      if (!authorization) {
        throw bodyFault(
          'AUTHORIZATION_NOT_FOUND',
          'authorization_id',
          'No such authorisation of this card.',
        )
      }
      return this.follow(trx, card, authorization, message, amount, now)
    })
    const row = await repo.findTransactionById(this.db, id)
    if (!row) throw new Error(`card transaction ${id} vanished`)
    return toCardTransaction(row)
  }

  private async authorize(
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    message: ProcessorMessageBody,
    amount: bigint,
    now: Date,
  ): Promise<string> {
    if (!message.merchant)
      throw bodyFault('MERCHANT_REQUIRED', 'merchant', 'An authorisation names its merchant.')
    const account = await repo.lockFiatAccount(trx, card.fiat_account_id)
    const decision = decide({
      cardStatus: card.status,
      accountStatus: card.account_status,
      amount,
      balance: await repo.balanceOf(trx, card.ledger_account_id, card.currency_uuid),
      limits: {
        per_transaction: BigInt(card.limit_per_transaction_minor),
        daily: BigInt(card.limit_daily_minor),
        monthly: BigInt(card.limit_monthly_minor),
      },
      spentToday: await repo.authorizedSince(trx, card.id, dayStart(now)),
      spentThisMonth: await repo.authorizedSince(trx, card.id, monthStart(now)),
    })
    const id = uuidv7()
    await repo.insertTransaction(trx, {
      id,
      card,
      type: 'AUTHORIZATION',
      status: decision.status,
      amountMinor: amount,
      merchant: message.merchant,
      declineReason: decision.status === 'DECLINED' ? decision.reason : null,
      exceededLimit: decision.status === 'DECLINED' ? decision.limit : null,
      authorizationId: null,
      at: now,
    })
    if (decision.status === 'APPROVED') {
      let hold = account.hold_ledger_account_id
      if (!hold) {
        hold = await openSubAccount(trx, card.tenant_id, card.wallet_id)
        await repo.setHoldAccount(trx, card.fiat_account_id, hold)
      }
      await post(trx, {
        tenantId: card.tenant_id,
        kind: 'card_hold',
        idempotencyKey: `card_tx:${id}:hold`,
        postings: holdPostings(
          { spendable: card.ledger_account_id, hold },
          card.currency_uuid,
          amount,
        ),
      })
    }
    return id
  }

  /** A clearing, reversal or refund of `authorization`. */
  private async follow(
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    authorization: repo.AuthorizationRow,
    message: ProcessorMessageBody,
    amount: bigint,
    now: Date,
  ): Promise<string> {
    const authorized = BigInt(authorization.amount_minor)
    const id = uuidv7()
    const merchant = message.merchant ?? merchantOf(authorization)
    const record = (type: 'CLEARING' | 'REVERSAL' | 'REFUND') =>
      repo.insertTransaction(trx, {
        id,
        card,
        type,
        status: 'SETTLED',
        amountMinor: amount,
        merchant,
        declineReason: null,
        exceededLimit: null,
        authorizationId: authorization.id,
        at: now,
      })
    const account = await repo.lockFiatAccount(trx, card.fiat_account_id)
    const destination = await this.releaseTo(trx, card, account.status)
    /** Money back to a CANCELED (closed stand-alone) account goes to the wallet, with its record. */
    const released = async (amountMinor: bigint) => {
      if (destination.toWallet && amountMinor > 0n) {
        await insertRefundRecord(trx, {
          id: uuidv7(),
          tenantId: card.tenant_id,
          walletId: card.wallet_id,
          currencyUuid: card.currency_uuid,
          amountMinor,
          cardId: card.id,
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
      await post(trx, {
        tenantId: card.tenant_id,
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
      await post(trx, {
        tenantId: card.tenant_id,
        kind: 'card_clearing',
        idempotencyKey: `card_tx:${authorization.id}:clear`,
        postings: clearingPostings(accounts, card.currency_uuid, authorized, amount),
      })
      await released(authorized - amount)
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
    await post(trx, {
      tenantId: card.tenant_id,
      kind: 'card_reversal',
      idempotencyKey: `card_tx:${authorization.id}:reverse`,
      postings: reversalPostings(accounts, card.currency_uuid, authorized),
    })
    await released(authorized)
    return id
  }

  /**
   * Where released or refunded money goes: the account's sub-account, or —
   * once the account is CANCELED (its stand-alone card was closed and its
   * balance returned) — the wallet's available balance.
   */
  private async releaseTo(
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    accountStatus: string,
  ): Promise<{ account: string; toWallet: boolean }> {
    if (accountStatus !== 'CANCELED') return { account: card.ledger_account_id, toWallet: false }
    const wallet = await walletAccounts(trx, card.tenant_id, card.wallet_id)
    if (!wallet) throw new Error(`wallet ${card.wallet_id} of card ${card.id} has no accounts`)
    return { account: wallet.user_wallet, toWallet: true }
  }
}

const external = (trx: Transaction<DB>, card: repo.ProcessingCard) =>
  systemAccount(trx, card.tenant_id, 'external')

function parseAmount(amount: string, decimals: number): bigint {
  let minor: bigint
  try {
    minor = toMinor(amount, decimals)
  } catch (error) {
    if (error instanceof AmountError) {
      throw bodyFault('INVALID_AMOUNT', 'amount', `At most ${decimals} decimal places.`)
    }
    throw error
  }
  if (minor <= 0n) throw bodyFault('INVALID_AMOUNT', 'amount', 'Must be more than 0.')
  return minor
}

/** The merchant columns as one value; the migration's CHECKs keep mcc and country well formed. */
const merchantOf = (row: {
  merchant_name: string | null
  merchant_mcc: string | null
  merchant_city: string | null
  merchant_country: string | null
}) =>
  row.merchant_name === null
    ? null
    : {
        name: row.merchant_name,
        mcc: row.merchant_mcc ?? '',
        city: row.merchant_city ?? '',
        country: row.merchant_country ?? '',
      }

/** Rows per keyset page of the CSV export. */
const EXPORT_PAGE_SIZE = 500

/** What the owner reads: card transactions, by card, by fiat account, or all. */
export class CardTransactionService {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Newest first. A card or fiat account of another user answers like a missing one.
   * @throws CardTransactionError CARD_NOT_FOUND, FIAT_ACCOUNT_NOT_FOUND
   */
  async list(
    owner: Owner,
    filter: { card_id?: string; fiat_account_id?: string; walletId?: string },
    page: Page,
  ): Promise<CardTransactionList> {
    const scope = await this.scope(owner, filter)
    const [rows, total] = await Promise.all([
      repo.findTransactions(this.db, scope, page),
      repo.countTransactions(this.db, scope),
    ])
    return pageOf(rows.map(toCardTransaction), total, page)
  }

  /**
   * Checks the card now (a mistake is still a problem answer), then yields
   * the CSV lazily: the header, then one chunk per keyset page, no
   * connection held between pages.
   * @throws CardTransactionError CARD_NOT_FOUND
   */
  async exportCsv(owner: Owner, cardId: string, pageSize = EXPORT_PAGE_SIZE) {
    const scope = await this.scope(owner, { card_id: cardId })
    const { db } = this
    return (async function* csv() {
      yield cardCsvHeader()
      let after: { createdAt: string; id: string } | undefined
      for (;;) {
        const rows = await repo.findPageAfter(db, scope, after, pageSize)
        if (rows.length > 0) yield rows.map((row) => cardCsvLine(toCardTransaction(row))).join('')
        if (rows.length < pageSize) return
        const last = rows[rows.length - 1]!
        after = { createdAt: last.cursor_at, id: last.id }
      }
    })()
  }

  private async scope(
    owner: Owner,
    filter: { card_id?: string; fiat_account_id?: string; walletId?: string },
  ): Promise<repo.CardTransactionScope> {
    if (
      filter.card_id !== undefined &&
      !(await repo.findOwnedCard(this.db, owner, filter.card_id))
    ) {
      throw new CardTransactionError({ kind: 'CARD_NOT_FOUND' })
    }
    if (filter.fiat_account_id !== undefined) {
      const account = await fiatRepo.findFiatAccount(this.db, owner, {
        id: filter.fiat_account_id,
        ...(filter.walletId !== undefined && { walletId: filter.walletId }),
      })
      if (!account) throw new CardTransactionError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
    }
    return {
      tenantId: owner.tenantId,
      userId: owner.userId,
      cardId: filter.card_id,
      fiatAccountId: filter.fiat_account_id,
    }
  }
}

export const toCardTransaction = (row: repo.CardTransactionRow): CardTransaction => ({
  id: row.id,
  card_id: row.card_id,
  card_last4: row.last4,
  fiat_account_id: row.fiat_account_id,
  wallet_uuid: row.wallet_id,
  type: row.type,
  status: row.status,
  amount: fromMinor(BigInt(row.amount_minor), row.decimals),
  currency: row.currency,
  currency_uuid: row.currency_uuid,
  merchant: merchantOf(row),
  decline_reason: row.decline_reason,
  exceeded_limit: row.exceeded_limit,
  authorization_id: row.authorization_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
