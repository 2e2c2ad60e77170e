import { type Kysely, sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  CardTransaction,
  CardTransactionList,
  ProcessorMessageBody,
} from '../../../contract/card-transactions.ts'
import { merchantCategoryOf } from '../../../contract/merchant-categories.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { CardCrypto } from '../cards/card-crypto.ts'
import { storedControls } from '../cards/controls-rules.ts'
import { insertWalletRecord, setWrongCodes } from '../cards/repository.ts'
import { consumeOtp } from '../cards/service.ts'
import { emitCardEvent } from '../events/card-events.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { canonicalHash, IdempotencyConflictError, runIdempotent } from '../idempotency.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import {
  balanceOf,
  openSubAccount,
  post,
  systemAccount,
  walletAccounts,
} from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { type HistoryWindow, historyPage, rowsFor } from '../page.ts'
import { cardAuthorized, cardPaymentFollowed } from './card-feed.ts'
import { type CategorySpent, categoryWindows, controlDecline } from './controls.ts'
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
  type ThreeDsResult,
  threeDsLocked,
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
 *
 * 3-D Secure: an authorisation's `three_ds_code` must be the card's current
 * one-time code (cards service consumeOtp spends it); `crypto` keys its hash.
 *
 * Controls (issue 30): the card's controls are checked after its status and
 * before its limits and the balance (rules.ts decide, controls.ts).
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
   * message again: nothing moves). Under the runner of idempotency.ts: two
   * copies queue on the claim of the id; the card's row lock orders messages.
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
    const claim = {
      scope: 'card_message' as const,
      tenantId: card.tenant_id,
      ownerId: card.id,
      key: networkId,
      hash,
    }
    let received: { answer: { id: string }; replayed: boolean }
    try {
      received = await runIdempotent<{ id: string }>(this.db, claim, async () => ({
        run: async (trx) => {
          const locked = await repo.findCardForProcessing(trx, card.id, { lock: true })
          if (!locked) throw bodyFault('UNKNOWN_CARD', 'card_id', 'No such card.')
          const stamp = networkId === undefined ? undefined : { id: networkId, hash }
          return { id: await this.#handle(trx, locked, { ...message, stamp }, now) }
        },
      }))
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
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    message: Stamped,
    now: Date,
  ): Promise<string> {
    if (message.currency.trim().toUpperCase() !== card.currency) {
      throw bodyFault('CURRENCY_MISMATCH', 'currency', `The card's account is in ${card.currency}.`)
    }
    const amount = parseAmount(message.amount, card.decimals)
    if (message.type === 'AUTHORIZATION') return this.authorize(trx, card, message, amount, now)
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
    const authorization = await repo.lockAuthorization(trx, card.id, message.authorization_id)
    if (!authorization) {
      throw bodyFault(
        'AUTHORIZATION_NOT_FOUND',
        'authorization_id',
        'No such authorisation of this card.',
      )
    }
    return this.follow(trx, card, authorization, message, amount, now)
  }

  private async authorize(
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    message: Stamped,
    amount: bigint,
    now: Date,
  ): Promise<string> {
    if (!message.merchant)
      throw bodyFault('MERCHANT_REQUIRED', 'merchant', 'An authorisation names its merchant.')
    const merchant = message.merchant
    const channel = message.channel ?? 'chip'
    const account = await repo.lockFiatAccount(trx, card.fiat_account_id)
    const controls = storedControls(card.controls)
    const decision = decide({
      threeDs: await this.checkThreeDs(trx, card, message.three_ds_code, now),
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
        trx,
        card,
        verdict.status === 'DECLINED'
          ? 'card.authorization.declined'
          : 'card.authorization.approved',
        {
          transactionId: id,
          amountMinor: amount,
          merchant,
          at: now,
          reason: declineReason,
          channel,
        },
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
    // the refused entry's rows, and only those).
    await sql`savepoint card_hold`.execute(trx)
    try {
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
  private async checkThreeDs(
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    code: string | undefined,
    now: Date,
  ): Promise<ThreeDsResult> {
    if (code === undefined) return 'NOT_ASKED'
    const tries = { failures: card.three_ds_failures, since: card.three_ds_failed_since }
    if (threeDsLocked(tries, now)) return 'FAILED'
    if (await consumeOtp(trx, this.crypto, { cardId: card.id, code, now })) {
      if (tries.failures > 0) await setWrongCodes(trx, card.id, 'three_ds', undefined)
      return 'PASSED'
    }
    await setWrongCodes(trx, card.id, 'three_ds', { after: tries, now })
    return 'FAILED'
  }

  /** A clearing, reversal or refund of `authorization`. */
  private async follow(
    trx: Transaction<DB>,
    card: repo.ProcessingCard,
    authorization: repo.AuthorizationRow,
    message: Stamped,
    amount: bigint,
    now: Date,
  ): Promise<string> {
    const authorized = BigInt(authorization.amount_minor)
    const id = uuidv7()
    const merchant = message.merchant ?? merchantOf(authorization)
    /** The payment's activity item, which the step's records belong to (set by `record`). */
    let activityId: string | null = null
    const record = async (type: 'CLEARING' | 'REVERSAL' | 'REFUND') => {
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
      if (type !== 'REVERSAL')
        await emitCardEvent(
          trx,
          card,
          type === 'REFUND' ? 'card.transaction.refunded' : 'card.transaction.settled',
          { transactionId: id, amountMinor: amount, merchant, at: now },
        )
    }
    const account = await repo.lockFiatAccount(trx, card.fiat_account_id)
    const destination = await this.releaseTo(trx, card, account.status)
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
      if (!destination.toWallet) {
        await this.afterClearing(trx, {
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

/** A message with its network id and hash, when it carried an id. */
type Stamped = ProcessorMessageBody & { stamp: { id: string; hash: string } | undefined }

/**
 * What makes two messages the same: every field but the id, the amount in
 * minor units (so 10.5 and 10.50 are one amount), codes and ids normalised;
 * keys in any order (a network retry may serialise its merchant differently).
 * A 3-D Secure code counts only when sent, so hashes of messages without one
 * stay what they were before the field existed; it enters keyed, as the card's
 * OTPs are stored, since a bare hash of six digits is read back by trying all
 * million.
 */
function messageHash(message: ProcessorMessageBody, decimals: number, crypto: CardCrypto): string {
  let amount: string
  try {
    amount = toMinor(message.amount, decimals).toString()
  } catch {
    amount = message.amount
  }
  return canonicalHash({
    card_id: message.card_id.toLowerCase(),
    type: message.type,
    amount,
    currency: message.currency.trim().toUpperCase(),
    merchant: message.merchant ?? null,
    authorization_id: message.authorization_id?.toLowerCase() ?? null,
    ...(message.three_ds_code !== undefined && {
      three_ds_code: crypto.otpHash(message.card_id.toLowerCase(), message.three_ds_code),
    }),
    ...(message.channel !== undefined && { channel: message.channel }),
  })
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
export const merchantOf = (row: {
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

/**
 * A top-up's DEPOSIT on a fiat account (no card: the money is the account's),
 * written in the caller's transaction beside its ledger entry. One per
 * operation (the order): a repeat writes nothing.
 */
export async function recordDeposit(
  trx: Transaction<DB>,
  deposit: {
    fiatAccountId: string
    operationId: string
    amountMinor: bigint
    /** The top-up's (or credit's) activity item. */
    activityId: string | null
    at: Date
    /** The record's id, when the caller needs it before (its activity item's source). */
    id?: string
  },
): Promise<void> {
  const account = await repo.findAccountHolder(trx, deposit.fiatAccountId)
  if (!account) throw new Error(`fiat account ${deposit.fiatAccountId} not found`)
  await repo.insertOwnRecord(trx, {
    id: deposit.id ?? uuidv7(),
    tenantId: account.tenant_id,
    userId: account.user_id,
    cardId: null,
    fiatAccountId: account.id,
    walletId: account.wallet_id,
    currencyUuid: account.currency_uuid,
    amountMinor: deposit.amountMinor,
    type: 'DEPOSIT',
    status: 'SETTLED',
    operationId: deposit.operationId,
    activityId: deposit.activityId,
    at: deposit.at,
  })
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
    page: HistoryWindow,
  ): Promise<CardTransactionList> {
    const scope = await this.scope(owner, filter)
    const rows = await repo.findTransactions(this.db, scope, rowsFor(page))
    return historyPage(rows.map(toCardTransaction), page, () =>
      repo.countTransactions(this.db, scope),
    )
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
  channel: row.channel,
  authorization_id: row.authorization_id,
  ...(row.fee_kind !== null && { fee_kind: row.fee_kind }),
  activity_id: row.activity_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
