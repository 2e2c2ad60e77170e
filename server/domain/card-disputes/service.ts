import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ActivityEventCode } from '../../../contract/activity.ts'
import type {
  CardDispute,
  CardDisputeList,
  CreateDisputeBody,
  DisputeOutcome,
} from '../../../contract/card-disputes.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import { assertNever } from '../../infra/problem.ts'
import { cardPaymentDisputed } from '../card-transactions/card-feed.ts'
import * as cardRepo from '../card-transactions/repository.ts'
import { merchantOf, refundPostings } from '../card-transactions/rules.ts'
import { canonicalHash, IdempotencyConflictError } from '../idempotency.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { type MoneyTransaction, runMoneyCommand } from '../ledger/money-command.ts'
import { systemAccount } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { pageOf } from '../page.ts'
import { DisputeError } from './errors.ts'
import * as repo from './repository.ts'
import { creditedAtOnce, decide } from './rules.ts'

/**
 * Disputes of card payments (issue 30, after Stripe Issuing's). A person
 * disputes a settled payment once; a fraud claim is credited at once,
 * provisionally. The card network (the sandbox's decision route) takes it
 * under review and decides: won keeps the credit for good (or credits a
 * claim that had none), lost takes a credit back. Each step is one money
 * command — at most one ledger entry, the payment's activity item and a
 * `card.dispute.updated` event in one transaction.
 */
export class DisputeService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Disputes the person's settled payment `transactionId` (its authorisation
   * or a clearing). The payment is the claim's key: the same claim again
   * answers the dispute (`replayed`), another one 409 DISPUTE_EXISTS.
   * @throws DisputeError TRANSACTION_NOT_FOUND, AUTHORIZATION_NOT_SETTLED, DISPUTE_EXISTS,
   *   AMOUNT_EXCEEDS_DISPUTABLE, INVALID_AMOUNT, FIAT_ACCOUNT_CLOSED
   */
  async create(
    owner: Owner,
    transactionId: string,
    body: CreateDisputeBody,
  ): Promise<{ dispute: CardDispute; replayed: boolean }> {
    let result: { answer: string; replayed: boolean }
    try {
      result = await runMoneyCommand(this.db, {
        name: 'card_disputes.create',
        tenantId: owner.tenantId,
        claim: {
          scope: 'card_dispute',
          ownerId: owner.userId,
          key: transactionId.toLowerCase(),
          hash: canonicalHash({
            reason: body.reason,
            details: body.details,
            amount: body.amount ?? null,
          }),
        },
        prepare: async () => {
          const payment = await repo.findOwnedPayment(this.db, owner, transactionId)
          if (!payment?.card_id) throw new DisputeError({ kind: 'TRANSACTION_NOT_FOUND' })
          return { ...payment, card_id: payment.card_id }
        },
        execute: (money, payment) => this.open(money, owner, payment, body),
      })
    } catch (error) {
      if (error instanceof IdempotencyConflictError) {
        throw new DisputeError({ kind: 'DISPUTE_EXISTS' })
      }
      throw error
    }
    return { dispute: await this.get(owner, result.answer), replayed: result.replayed }
  }

  private async open(
    money: MoneyTransaction,
    owner: Owner,
    payment: { id: string; card_id: string },
    body: CreateDisputeBody,
  ): Promise<string> {
    const { trx } = money
    const card = await cardRepo.findCardForProcessing(trx, payment.card_id)
    const authorization = card && (await cardRepo.lockAuthorization(trx, card.id, payment.id))
    if (!card || !authorization) throw new DisputeError({ kind: 'TRANSACTION_NOT_FOUND' })
    if (authorization.status !== 'SETTLED') {
      throw new DisputeError({ kind: 'AUTHORIZATION_NOT_SETTLED', status: authorization.status })
    }
    if (await repo.findByTransaction(trx, authorization.id)) {
      throw new DisputeError({ kind: 'DISPUTE_EXISTS' })
    }
    const { cleared, refunded } = await cardRepo.settledAmounts(trx, authorization.id)
    const disputable = cleared - refunded
    const amount = body.amount === undefined ? disputable : parseAmount(body.amount, card.decimals)
    if (amount > disputable || disputable <= 0n) {
      throw new DisputeError({
        kind: 'AMOUNT_EXCEEDS_DISPUTABLE',
        disputable: fromMinor(disputable > 0n ? disputable : 0n, card.decimals),
      })
    }
    // A closed stand-alone card's account is gone: no credit could land on it.
    if (card.account_status === 'CANCELED') {
      throw new DisputeError({ kind: 'FIAT_ACCOUNT_CLOSED' })
    }
    const id = uuidv7()
    const now = this.clock()
    await repo.insertDispute(trx, {
      id,
      owner,
      cardId: card.id,
      transactionId: authorization.id,
      reason: body.reason,
      details: body.details,
      currencyUuid: card.currency_uuid,
      amountMinor: amount,
      activityId: authorization.activity_id,
      at: now,
    })
    const step = { tenantId: owner.tenantId, authorizationId: authorization.id, disputeId: id }
    await cardPaymentDisputed(trx, {
      ...step,
      status: 'SUBMITTED',
      code: 'DISPUTED',
      creditMinor: 0n,
      at: now,
    })
    if (creditedAtOnce(body.reason)) {
      const entry = await this.credit(money, card, id, amount)
      await repo.updateDispute(trx, id, {
        status: 'SUBMITTED',
        credit: { minor: amount, provisional: true, entryId: entry, at: now },
        at: now,
      })
      await cardPaymentDisputed(trx, {
        ...step,
        status: 'SUBMITTED',
        code: 'DISPUTE_CREDITED',
        creditMinor: amount,
        at: now,
      })
    }
    await this.tell(money, id)
    return id
  }

  /**
   * The network's decision (the sandbox route, any tenant).
   * @throws DisputeError DISPUTE_NOT_FOUND, DISPUTE_DECIDED, INSUFFICIENT_FUNDS
   */
  async decide(id: string, outcome: DisputeOutcome): Promise<CardDispute> {
    const found = await repo.findDispute(this.db, id)
    if (!found) throw new DisputeError({ kind: 'DISPUTE_NOT_FOUND' })
    await runMoneyCommand(this.db, {
      name: 'card_disputes.decide',
      tenantId: found.tenant_id,
      execute: async (money) => {
        const { trx } = money
        const dispute = await repo.findDispute(trx, id, { lock: true })
        if (!dispute) throw new DisputeError({ kind: 'DISPUTE_NOT_FOUND' })
        const decision = decide(
          { status: dispute.status, credited: dispute.credited_minor !== null },
          outcome,
        )
        if (!decision.ok)
          throw new DisputeError({ kind: 'DISPUTE_DECIDED', status: decision.status })
        const now = this.clock()
        const step = {
          tenantId: dispute.tenant_id,
          authorizationId: dispute.transaction_id,
          disputeId: id,
          status: decision.status,
          at: now,
        }
        const code: ActivityEventCode =
          decision.status === 'UNDER_REVIEW'
            ? 'DISPUTE_REVIEWED'
            : decision.status === 'WON'
              ? 'DISPUTE_WON'
              : 'DISPUTE_LOST'
        await cardPaymentDisputed(trx, { ...step, code, creditMinor: 0n })
        switch (decision.money) {
          case 'none':
            await repo.updateDispute(trx, id, { status: decision.status, at: now })
            break
          case 'confirm':
            await repo.updateDispute(trx, id, {
              status: decision.status,
              credit: {
                minor: BigInt(dispute.credited_minor ?? '0'),
                provisional: false,
                entryId: null,
                at: now,
              },
              at: now,
            })
            break
          case 'credit': {
            const card = await cardRepo.findCardForProcessing(trx, dispute.card_id)
            if (!card) throw new Error(`card ${dispute.card_id} of dispute ${id} vanished`)
            const amount = BigInt(dispute.amount_minor)
            const entry = await this.credit(money, card, id, amount)
            await repo.updateDispute(trx, id, {
              status: decision.status,
              credit: { minor: amount, provisional: false, entryId: entry, at: now },
              at: now,
            })
            await cardPaymentDisputed(trx, {
              ...step,
              code: 'DISPUTE_CREDITED',
              creditMinor: amount,
            })
            break
          }
          case 'reverse': {
            if (!dispute.credit_entry_id) throw new Error(`dispute ${id} credited without an entry`)
            await this.takeBack(money, dispute.credit_entry_id, id)
            await repo.updateDispute(trx, id, { status: decision.status, credit: null, at: now })
            await cardPaymentDisputed(trx, {
              ...step,
              code: 'DISPUTE_CREDIT_REVERSED',
              creditMinor: -BigInt(dispute.credited_minor ?? '0'),
            })
            break
          }
          default:
            assertNever(decision.money)
        }
        await this.tell(money, id)
      },
    })
    const decided = await repo.findDispute(this.db, id)
    if (!decided) throw new DisputeError({ kind: 'DISPUTE_NOT_FOUND' })
    return toCardDispute(decided)
  }

  /** @throws DisputeError DISPUTE_NOT_FOUND */
  async get(owner: Owner, id: string): Promise<CardDispute> {
    const row = await repo.findOwnedDispute(this.db, owner, id)
    if (!row) throw new DisputeError({ kind: 'DISPUTE_NOT_FOUND' })
    return toCardDispute(row)
  }

  async list(owner: Owner, page: { limit: number; offset: number }): Promise<CardDisputeList> {
    const [rows, total] = await Promise.all([
      repo.findOwnedDisputes(this.db, owner, page),
      repo.countOwnedDisputes(this.db, owner),
    ])
    return pageOf(rows.map(toCardDispute), total, page)
  }

  /** The credit: from outside (the network pays it) to the card's account. Answers its entry. */
  private async credit(
    money: MoneyTransaction,
    card: cardRepo.ProcessingCard,
    disputeId: string,
    amount: bigint,
  ): Promise<string> {
    const external = await systemAccount(money.trx, card.tenant_id, 'external')
    const entry = await money.post({
      kind: 'card_dispute_credit',
      idempotencyKey: `card_dispute:${disputeId}:credit`,
      postings: refundPostings(
        { spendable: card.ledger_account_id, external },
        card.currency_uuid,
        amount,
      ),
    })
    return entry.id
  }

  /** A lost claim's credit taken back; refused, with nothing written, when it was spent. */
  private async takeBack(money: MoneyTransaction, entryId: string, disputeId: string) {
    try {
      await money.reverse({ entryId, idempotencyKey: `card_dispute:${disputeId}:reverse` })
    } catch (error) {
      if (isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) {
        throw new DisputeError({ kind: 'INSUFFICIENT_FUNDS' })
      }
      throw error
    }
  }

  /** `card.dispute.updated`, from the dispute as this transaction leaves it. */
  private async tell(money: MoneyTransaction, id: string) {
    const row = await repo.findDispute(money.trx, id)
    if (!row) throw new Error(`dispute ${id} vanished`)
    const dispute = toCardDispute(row)
    await money.emit({
      userId: row.user_id,
      kind: 'card.dispute.updated',
      payload: {
        dispute_id: dispute.id,
        card_id: dispute.card_id,
        transaction_id: dispute.transaction_id,
        activity_id: dispute.activity_id,
        status: dispute.status,
        reason: dispute.reason,
        amount: dispute.amount,
        currency: dispute.currency,
        merchant_name: dispute.merchant?.name ?? '',
        credited: dispute.credit?.amount ?? null,
        provisional: dispute.credit?.provisional ?? false,
      },
    })
  }
}

function parseAmount(amount: string, decimals: number): bigint {
  let minor: bigint
  try {
    minor = toMinor(amount, decimals)
  } catch (error) {
    if (error instanceof AmountError) {
      throw new DisputeError({
        kind: 'INVALID_AMOUNT',
        message: `At most ${decimals} decimal places.`,
      })
    }
    throw error
  }
  if (minor <= 0n)
    throw new DisputeError({ kind: 'INVALID_AMOUNT', message: 'Must be more than 0.' })
  return minor
}

export const toCardDispute = (row: repo.DisputeRow): CardDispute => ({
  id: row.id,
  card_id: row.card_id,
  card_last4: row.card_last4,
  transaction_id: row.transaction_id,
  activity_id: row.activity_id,
  reason: row.reason,
  details: row.details,
  status: row.status,
  amount: fromMinor(BigInt(row.amount_minor), row.decimals),
  currency: row.currency,
  merchant: merchantOf(row),
  credit:
    row.credited_minor === null || row.credited_at === null
      ? null
      : {
          amount: fromMinor(BigInt(row.credited_minor), row.decimals),
          provisional: row.credit_provisional,
          at: row.credited_at.toISOString(),
        },
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
