import { v7 as uuidv7 } from 'uuid'
import type { Card, CardFormFactor, CardLimits, DeliveryAddress } from '../../../contract/cards.ts'
import { fromMinor } from '../../../contract/money.ts'
import { insertOwnRecord, lockFiatAccount } from '../fiat-accounts/account-records.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { programRefusal } from '../fiat-accounts/rules.ts'
import { insertFiatAccount } from '../fiat-accounts/service.ts'
import { canonicalHash, IdempotencyConflictError } from '../idempotency.ts'
import { requireApprovedKyc } from '../kyc/gate.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { type MoneyTransaction, runMoneyCommand } from '../ledger/money-command.ts'
import { transfer } from '../ledger/rules.ts'
import { openSubAccount, systemAccount, walletAccounts } from '../ledger/service.ts'
import type { Owner } from '../owner.ts'
import { findWallet } from '../wallets/repository.ts'
import type { CardDeps } from './card-deps.ts'
import { cardFeeCharged } from './card-feed.ts'
import { limitsOf } from './card-settings.ts'
import { CardError } from './errors.ts'
import { accountUnavailable, checkFormFactor, deliveryOf } from './issue-checks.ts'
import { insertNewCard, type NewCardFacts } from './new-card.ts'
import { toCard } from './read-cards.ts'
import * as repo from './repository.ts'

/** A card answered by a creation: `replayed` when it is the first answer under the same key again. */
export interface Issued {
  card: Card
  replayed: boolean
}

export interface IssueOptions {
  formFactor: CardFormFactor
  nickName?: string | undefined
  limits?: CardLimits | undefined
  deliveryAddress?: DeliveryAddress | undefined
  /** The idempotency key: request_id, else the Idempotency-Key header; none without either. */
  requestKey?: string | undefined
}

/**
 * A stand-alone card: a new fiat account of its own under an ACTIVE prepaid
 * program, its ledger sub-account, the card and the program's issue fee
 * (paid from the wallet: the new account is empty), in one money command.
 * @throws CardError WALLET_NOT_FOUND, PROGRAM_*, FORM_FACTOR_UNAVAILABLE, INVALID_LIMITS,
 *   DELIVERY_ADDRESS_*, INVALID_DELIVERY_ADDRESS, INSUFFICIENT_FUNDS, IDEMPOTENCY_CONFLICT
 */
export async function createStandAlone(
  deps: CardDeps,
  owner: Owner,
  request: IssueOptions & { walletId: string; programId: string },
): Promise<Issued> {
  const hash = canonicalHash({
    route: 'create',
    wallet_uuid: request.walletId.toLowerCase(),
    program_id: request.programId.toLowerCase(),
    ...issueFields(request),
  })
  return issueUnder(deps, owner, request.requestKey, hash, async () => {
    if (!(await findWallet(deps.db, owner, request.walletId))) {
      throw new CardError({
        kind: 'WALLET_NOT_FOUND',
        fault: { field: '/body/wallet_uuid', message: 'No such wallet.' },
      })
    }
    const program = await repo.findProgramForCard(deps.db, owner.tenantId, request.programId)
    const programField = '/body/program_id'
    const refusal = programRefusal(program)
    if (!program || refusal) {
      const message =
        refusal === 'PROGRAM_ARCHIVED'
          ? 'This card program is archived: it issues no new cards.'
          : 'No such card program.'
      throw new CardError({
        kind: refusal ?? 'PROGRAM_NOT_FOUND',
        fault: { field: programField, message },
      })
    }
    if (program.sub_account_type !== 'prepaid') {
      throw new CardError({
        kind: 'PROGRAM_NOT_PREPAID',
        fault: {
          field: programField,
          message:
            'A stand-alone card needs a prepaid program; cards of a balance program are issued on a fiat account.',
        },
      })
    }
    checkFormFactor(program, request.formFactor)
    const limits = limitsOf(request.limits, program.decimals)
    const delivery = deliveryOf(request.formFactor, request.deliveryAddress)

    const id = uuidv7()
    return {
      id,
      work: async (money: MoneyTransaction, at: Date) => {
        const { trx } = money
        // Issuing needs a verified identity (403 KYC_REQUIRED); a replay answered above.
        await requireApprovedKyc(trx, owner.tenantId, owner.userId)
        const fiatAccountId = uuidv7()
        const ledgerAccountId = await openSubAccount(trx, owner.tenantId, request.walletId)
        await insertFiatAccount(
          trx,
          {
            id: fiatAccountId,
            tenantId: owner.tenantId,
            walletId: request.walletId,
            programId: program.id,
            currencyUuid: program.currency_uuid,
            currency: program.currency,
            subAccountType: program.sub_account_type,
            ledgerAccountId,
            at,
          },
          deps.settings.bank,
        )
        const card = {
          id,
          walletId: request.walletId,
          fiatAccountId,
          program,
          standAlone: true,
          formFactor: request.formFactor,
          nickName: request.nickName,
          limits,
          delivery,
        }
        await insertNewCard(deps, money, owner, card, at)
        const wallet = await walletAccounts(trx, owner.tenantId, request.walletId)
        if (!wallet) throw new Error(`wallet ${request.walletId} has no ledger accounts`)
        await chargeIssueFee(money, owner, card, at, {
          account: wallet.user_wallet,
          field: '/body/wallet_uuid',
          holder: 'the wallet',
        })
      },
    }
  })
}

/**
 * A card spending from one of the owner's ACTIVE fiat accounts, under that
 * account's program (which may since have been archived: the account stays
 * served). The program's issue fee is paid from the account, in the same money command.
 * @throws CardError FIAT_ACCOUNT_NOT_FOUND, FIAT_ACCOUNT_UNAVAILABLE, FORM_FACTOR_UNAVAILABLE,
 *   INVALID_LIMITS, DELIVERY_ADDRESS_*, INVALID_DELIVERY_ADDRESS, INSUFFICIENT_FUNDS,
 *   IDEMPOTENCY_CONFLICT
 */
export async function createOnAccount(
  deps: CardDeps,
  owner: Owner,
  request: IssueOptions & { fiatAccountId: string },
): Promise<Issued> {
  const hash = canonicalHash({
    route: 'balance',
    fiat_account_id: request.fiatAccountId.toLowerCase(),
    ...issueFields(request),
  })
  return issueUnder(deps, owner, request.requestKey, hash, async () => {
    const field = '/body/fiat_account_id'
    const account = await fiatRepo.findFiatAccount(deps.db, owner, { id: request.fiatAccountId })
    if (!account) {
      throw new CardError({
        kind: 'FIAT_ACCOUNT_NOT_FOUND',
        fault: { field, message: 'No such fiat account.' },
      })
    }
    if (account.status !== 'ACTIVE' || (await repo.hasStandAloneCard(deps.db, account.id))) {
      throw accountUnavailable(account.status)
    }
    const program = await repo.findProgramForCard(deps.db, owner.tenantId, account.program_id)
    if (!program) throw new Error(`program ${account.program_id} of account ${account.id} vanished`)
    checkFormFactor(program, request.formFactor)
    const limits = limitsOf(request.limits, program.decimals)
    const delivery = deliveryOf(request.formFactor, request.deliveryAddress)

    const id = uuidv7()
    return {
      id,
      work: async (money: MoneyTransaction, at: Date) => {
        const { trx } = money
        // Issuing needs a verified identity (403 KYC_REQUIRED); a replay answered above.
        await requireApprovedKyc(trx, owner.tenantId, owner.userId)
        // The processor's lock (card → fiat account → balances): the fee and an
        // authorisation on another card of the account spend one at a time; and
        // the account is checked again under it, so the check and the charge are one.
        const locked = await lockFiatAccount(trx, account.id)
        if (locked.status !== 'ACTIVE' || (await repo.hasStandAloneCard(trx, account.id))) {
          throw accountUnavailable(locked.status)
        }
        const card = {
          id,
          walletId: account.wallet_id,
          fiatAccountId: account.id,
          program,
          standAlone: false,
          formFactor: request.formFactor,
          nickName: request.nickName,
          limits,
          delivery,
        }
        await insertNewCard(deps, money, owner, card, at)
        await chargeIssueFee(money, owner, card, at, {
          account: account.ledger_account_id,
          field,
          holder: 'the fiat account',
        })
      },
    }
  })
}

/**
 * Issues as one money command (ledger/money-command.ts) under the client's
 * key: a key already answered answers again before any check; else
 * `prepare` checks the request (outside any transaction) and says what to
 * write, and the transaction that claims the key writes it — the card, its
 * `card.issued` event, the issue fee — and keeps the card as answered.
 */
async function issueUnder(
  deps: CardDeps,
  owner: Owner,
  key: string | undefined,
  hash: string,
  prepare: () => Promise<{
    id: string
    work: (money: MoneyTransaction, at: Date) => Promise<void>
  }>,
): Promise<Issued> {
  try {
    const issued = await runMoneyCommand(deps.db, {
      name: 'cards.issue',
      tenantId: owner.tenantId,
      claim: { scope: 'card_issue', ownerId: owner.userId, key, hash },
      prepare,
      execute: async (money, { id, work }): Promise<Card> => {
        await work(money, deps.clock())
        const row = await repo.findCard(money.trx, owner, id)
        if (!row) throw new Error(`card ${id} vanished`)
        return toCard(row)
      },
    })
    return { card: issued.answer, replayed: issued.replayed }
  } catch (error) {
    if (error instanceof IdempotencyConflictError) {
      throw new CardError({ kind: 'IDEMPOTENCY_CONFLICT', of: 'create' })
    }
    throw error
  }
}

/**
 * The program's issue fee, if any: one entry from `source` to the tenant's
 * fees (key `card:<id>:fee:issue`) and the record of whoever paid it. A card
 * on an account: a FEE card transaction on the account. A stand-alone card
 * (paid from the wallet; its new account never held the money): the
 * wallet's FEE record only (operation_id = the card), so each history
 * matches its own balance.
 * @throws CardError INSUFFICIENT_FUNDS on `source.field`
 */
async function chargeIssueFee(
  money: MoneyTransaction,
  owner: Owner,
  card: NewCardFacts,
  at: Date,
  source: { account: string; field: string; holder: string },
): Promise<void> {
  const fee = BigInt(card.program.fee_issue_minor)
  if (fee <= 0n) return
  const { trx } = money
  const currency = card.program.currency_uuid
  try {
    await money.post({
      kind: 'card_fee',
      idempotencyKey: `card:${card.id}:fee:issue`,
      postings: transfer(
        source.account,
        await systemAccount(trx, owner.tenantId, 'fees'),
        currency,
        fee,
      ),
    })
  } catch (error) {
    if (!isLedgerFailure(error, 'INSUFFICIENT_FUNDS')) throw error
    const decimals = card.program.decimals
    throw new CardError({
      kind: 'INSUFFICIENT_FUNDS',
      fault: {
        field: source.field,
        message:
          `The card's issue fee is ${fromMinor(fee, decimals)} ${card.program.currency}; ` +
          `${source.holder} has ${fromMinor(error.failure.balance, decimals)} ${card.program.currency}.`,
      },
    })
  }
  const activityId = uuidv7()
  const charged = async (source: { type: 'card' | 'card_transaction'; id: string }) => {
    await money.emit({
      userId: owner.userId,
      kind: 'card.fee.charged',
      payload: {
        card_id: card.id,
        transaction_id: source.type === 'card_transaction' ? source.id : null,
        amount: fromMinor(fee, card.program.decimals),
        currency: card.program.currency,
        fee_kind: 'ISSUE',
        paid: true,
      },
      at,
    })
    await cardFeeCharged(trx, {
      id: activityId,
      card: {
        tenant_id: owner.tenantId,
        user_id: owner.userId,
        wallet_id: card.walletId,
        id: card.id,
        fiat_account_id: card.fiatAccountId,
        currency_uuid: currency,
      },
      source,
      feeKind: 'ISSUE',
      amountMinor: fee,
      paid: true,
      at,
    })
  }
  if (card.standAlone) {
    await repo.insertWalletRecord(trx, {
      id: uuidv7(),
      tenantId: owner.tenantId,
      walletId: card.walletId,
      recordType: 'FEE',
      currencyUuid: currency,
      amountMinor: fee,
      cardId: card.id,
      activityId,
      at,
    })
    await charged({ type: 'card', id: card.id })
    return
  }
  const recordId = uuidv7()
  const recorded = await insertOwnRecord(trx, {
    id: recordId,
    activityId,
    tenantId: owner.tenantId,
    userId: owner.userId,
    cardId: card.id,
    fiatAccountId: card.fiatAccountId,
    walletId: card.walletId,
    currencyUuid: currency,
    amountMinor: fee,
    type: 'FEE',
    status: 'SETTLED',
    feeKind: 'ISSUE',
    feePeriod: null,
    at,
  })
  if (recorded) await charged({ type: 'card_transaction', id: recordId })
}

/** The body fields a creation's key stands for (request_id aside), as sent. */
const issueFields = (request: IssueOptions) => ({
  form_factor: request.formFactor,
  nick_name: request.nickName ?? null,
  limits: request.limits ?? null,
  delivery_address: request.deliveryAddress ?? null,
})
