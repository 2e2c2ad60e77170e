import { timingSafeEqual } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import {
  type Card,
  type CardDetail,
  type CardFormFactor,
  type CardLimits,
  type CardList,
  type CardListQuery,
  type CardOtp,
  type CardRevealList,
  type CardSecrets,
  cardFinished,
  cardRevealable,
  type DeliveryAddress,
  type SecretKeyReply,
} from '../../../contract/cards.ts'
import type { FiatAccountStatus } from '../../../contract/fiat-accounts.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult, JobRunner } from '../../infra/jobs.ts'
import { cardBalanceReturned, cardFeeCharged } from '../activity/record.ts'
import { insertOwnRecord, lockFiatAccount } from '../card-transactions/repository.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { programRefusal } from '../fiat-accounts/rules.ts'
import { toFiatAccount } from '../fiat-accounts/service.ts'
import { canonicalHash } from '../idempotency.ts'
import { requireApprovedKyc } from '../kyc/gate.ts'
import { isLedgerFailure } from '../ledger/errors.ts'
import { transfer } from '../ledger/rules.ts'
import {
  balanceOf,
  openSubAccount,
  post,
  systemAccount,
  walletAccounts,
} from '../ledger/service.ts'
import { isKnownCountry } from '../location/countries.ts'
import { pageOf } from '../page.ts'
import { findWallet, type Owner } from '../wallets/repository.ts'
import { type CardCrypto, exchangeKeyHash, sealSecrets } from './card-crypto.ts'
import { type BodyFault, CardError } from './errors.ts'
import * as repo from './repository.ts'
import {
  activationRetryAfter,
  anniversariesBy,
  anniversary,
  CARD_OTP_TTL_MS,
  type CardAction,
  defaultLimits,
  deriveCvv,
  expiryFor,
  feePeriod,
  formatExpiry,
  generateOtp,
  generatePan,
  isFresh,
  type LimitsMinor,
  limitFaults,
  nextStatus,
  parseExchangePlaintext,
} from './rules.ts'
import type { ShippingProvider } from './shipping.ts'

/** A card's monthly program fee, on each monthly anniversary of its issue. */
export const CARD_MONTHLY_FEE_JOB = 'cards.monthly_fee'

export interface CardSettings {
  jobs: Pick<JobRunner, 'enqueue'>
  /**
   * Who delivers PHYSICAL cards: the sandbox courier in sandbox mode; none in
   * production mode (the card stays ORDERED until a real provider moves it).
   */
  shipping?: ShippingProvider | undefined
  clock?: () => Date
}

/** A card answered by a creation: `replayed` when it is the first answer under the same key again. */
export interface Issued {
  card: Card
  replayed: boolean
}

/** The caller: the owner, and the session a reveal is logged under. */
export interface Caller extends Owner {
  sessionId: string
}

interface IssueOptions {
  formFactor: CardFormFactor
  nickName?: string | undefined
  limits?: CardLimits | undefined
  deliveryAddress?: DeliveryAddress | undefined
  /** The idempotency key: request_id, else the Idempotency-Key header; none without either. */
  requestKey?: string | undefined
}

/**
 * How long an accepted encrypted_key is remembered: well past the 120 s after
 * which it is refused as stale anyway (repository.pruneExchangeKeys), with
 * room for a database clock that differs from the server's.
 */
const EXCHANGE_KEY_MEMORY_MS = 10 * 60_000

/** Draws of a new number before giving up: a clash in a 7-to-9-digit random space is rare. */
const PAN_ATTEMPTS = 8

/**
 * Cards: issued under a program, spending from a fiat account. The number is
 * generated here, kept only encrypted (card-crypto.ts), and leaves the server
 * only inside the secret exchange; the CVV is derived on each reveal.
 */
export class CardService {
  private readonly clock: () => Date

  constructor(
    private readonly db: Kysely<DB>,
    private readonly crypto: CardCrypto,
    private readonly settings: CardSettings,
  ) {
    this.clock = settings.clock ?? (() => new Date())
  }

  /**
   * A stand-alone card: a new fiat account of its own under an ACTIVE prepaid
   * program, its ledger sub-account, the card and the program's issue fee
   * (paid from the wallet: the new account is empty), in one transaction.
   * @throws CardError WALLET_NOT_FOUND, PROGRAM_*, FORM_FACTOR_UNAVAILABLE, INVALID_LIMITS,
   *   DELIVERY_ADDRESS_*, INVALID_DELIVERY_ADDRESS, INSUFFICIENT_FUNDS, IDEMPOTENCY_CONFLICT
   */
  async createStandAlone(
    owner: Owner,
    request: IssueOptions & { walletId: string; programId: string },
  ): Promise<Issued> {
    const hash = canonicalHash({
      route: 'create',
      wallet_uuid: request.walletId.toLowerCase(),
      program_id: request.programId.toLowerCase(),
      ...issueFields(request),
    })
    const early = await this.#replay(owner, request.requestKey, hash)
    if (early) return early
    if (!(await findWallet(this.db, owner, request.walletId))) {
      throw new CardError({
        kind: 'WALLET_NOT_FOUND',
        fault: { field: '/body/wallet_uuid', message: 'No such wallet.' },
      })
    }
    const program = await repo.findProgramForCard(this.db, owner.tenantId, request.programId)
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
    return this.#issue(owner, request.requestKey, hash, id, async (trx, at) => {
      // Issuing needs a verified identity (403 KYC_REQUIRED); a replay answered above.
      await requireApprovedKyc(trx, owner.tenantId, owner.userId)
      const fiatAccountId = uuidv7()
      const ledgerAccountId = await openSubAccount(trx, owner.tenantId, request.walletId)
      await fiatRepo.insertFiatAccount(trx, {
        id: fiatAccountId,
        tenantId: owner.tenantId,
        walletId: request.walletId,
        programId: program.id,
        currencyUuid: program.currency_uuid,
        subAccountType: program.sub_account_type,
        ledgerAccountId,
      })
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
      await this.insertNewCard(trx, owner, card, at)
      const wallet = await walletAccounts(trx, owner.tenantId, request.walletId)
      if (!wallet) throw new Error(`wallet ${request.walletId} has no ledger accounts`)
      await this.#chargeIssueFee(trx, owner, card, at, {
        account: wallet.user_wallet,
        field: '/body/wallet_uuid',
        holder: 'the wallet',
      })
    })
  }

  /**
   * A card spending from one of the owner's ACTIVE fiat accounts, under that
   * account's program (which may since have been archived: the account stays
   * served). The program's issue fee is paid from the account, in the same transaction.
   * @throws CardError FIAT_ACCOUNT_NOT_FOUND, FIAT_ACCOUNT_UNAVAILABLE, FORM_FACTOR_UNAVAILABLE,
   *   INVALID_LIMITS, DELIVERY_ADDRESS_*, INVALID_DELIVERY_ADDRESS, INSUFFICIENT_FUNDS,
   *   IDEMPOTENCY_CONFLICT
   */
  async createOnAccount(
    owner: Owner,
    request: IssueOptions & { fiatAccountId: string },
  ): Promise<Issued> {
    const hash = canonicalHash({
      route: 'balance',
      fiat_account_id: request.fiatAccountId.toLowerCase(),
      ...issueFields(request),
    })
    const early = await this.#replay(owner, request.requestKey, hash)
    if (early) return early
    const field = '/body/fiat_account_id'
    const account = await fiatRepo.findFiatAccount(this.db, owner, { id: request.fiatAccountId })
    if (!account) {
      throw new CardError({
        kind: 'FIAT_ACCOUNT_NOT_FOUND',
        fault: { field, message: 'No such fiat account.' },
      })
    }
    if (account.status !== 'ACTIVE' || (await repo.hasStandAloneCard(this.db, account.id))) {
      throw accountUnavailable(account.status)
    }
    const program = await repo.findProgramForCard(this.db, owner.tenantId, account.program_id)
    if (!program) throw new Error(`program ${account.program_id} of account ${account.id} vanished`)
    checkFormFactor(program, request.formFactor)
    const limits = limitsOf(request.limits, program.decimals)
    const delivery = deliveryOf(request.formFactor, request.deliveryAddress)

    const id = uuidv7()
    return this.#issue(owner, request.requestKey, hash, id, async (trx, at) => {
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
      await this.insertNewCard(trx, owner, card, at)
      await this.#chargeIssueFee(trx, owner, card, at, {
        account: account.ledger_account_id,
        field,
        holder: 'the fiat account',
      })
    })
  }

  /** The first answer under this key when there is one (before any check: it may be stale). */
  async #replay(owner: Owner, key: string | undefined, hash: string): Promise<Issued | undefined> {
    if (key === undefined) return undefined
    const earlier = await repo.findCreateRequest(this.db, owner, key)
    return earlier && replayOf(earlier, hash)
  }

  /**
   * The issuing transaction: the key first (a concurrent request under it
   * waits here, then replays this one's answer), then `work`, then the card as
   * answered, kept under the key.
   */
  async #issue(
    owner: Owner,
    key: string | undefined,
    hash: string,
    id: string,
    work: (trx: Transaction<DB>, at: Date) => Promise<void>,
  ): Promise<Issued> {
    return this.db.transaction().execute(async (trx) => {
      if (key !== undefined) {
        const claimed = await repo.claimCreateRequest(trx, { owner, key, hash, cardId: id })
        if (!claimed) {
          const earlier = await repo.findCreateRequest(trx, owner, key)
          if (!earlier) throw new Error(`card creation key ${key} taken but not found`)
          return replayOf(earlier, hash)
        }
      }
      await work(trx, this.clock())
      const row = await repo.findCard(trx, owner, id)
      if (!row) throw new Error(`card ${id} vanished`)
      const card = toCard(row)
      if (key !== undefined) await repo.setCreateResponse(trx, owner, key, card)
      return { card, replayed: false }
    })
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
  async #chargeIssueFee(
    trx: Transaction<DB>,
    owner: Owner,
    card: NewCardFacts,
    at: Date,
    source: { account: string; field: string; holder: string },
  ): Promise<void> {
    const fee = BigInt(card.program.fee_issue_minor)
    if (fee <= 0n) return
    const currency = card.program.currency_uuid
    try {
      await post(trx, {
        tenantId: owner.tenantId,
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
    const charged = (source: { type: 'card' | 'card_transaction'; id: string }) =>
      cardFeeCharged(trx, {
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

  /**
   * The card row (a PHYSICAL one INACTIVE, its delivery ORDERED and handed to
   * the shipping provider, if there is one) and, when its program charges one, the monthly fee's job.
   */
  private async insertNewCard(
    trx: Transaction<DB>,
    owner: Owner,
    card: NewCardFacts,
    at: Date,
  ): Promise<void> {
    const expiry = expiryFor(at)
    let inserted = false
    for (let attempt = 0; attempt < PAN_ATTEMPTS && !inserted; attempt++) {
      const pan = generatePan(card.program.bin)
      inserted = await repo.insertCard(trx, {
        id: card.id,
        tenantId: owner.tenantId,
        userId: owner.userId,
        walletId: card.walletId,
        fiatAccountId: card.fiatAccountId,
        programId: card.program.id,
        standAlone: card.standAlone,
        formFactor: card.formFactor,
        cardType: card.program.card_type,
        nickName: card.nickName?.trim() || null,
        bin: card.program.bin,
        last4: pan.slice(-4),
        panCiphertext: this.crypto.encryptPan({ tenantId: owner.tenantId, cardId: card.id }, pan),
        panKeyId: this.crypto.keyId,
        panFingerprint: this.crypto.panFingerprint(pan),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        limits: card.limits,
        status: card.delivery ? 'INACTIVE' : 'ACTIVE',
        delivery: card.delivery && { address: card.delivery, status: 'ORDERED' },
        at,
      })
    }
    if (!inserted) {
      throw new Error(
        `no free card number under BIN ${card.program.bin} after ${PAN_ATTEMPTS} draws`,
      )
    }
    if (card.delivery && this.settings.shipping) {
      await this.settings.shipping.ship(trx, { tenantId: owner.tenantId, cardId: card.id }, at)
    }
    if (BigInt(card.program.fee_monthly_minor) > 0n) {
      await this.settings.jobs.enqueue(trx, {
        kind: CARD_MONTHLY_FEE_JOB,
        tenantId: owner.tenantId,
        payload: { card_id: card.id },
        runAt: anniversary(at, 1),
      })
    }
  }

  /** The owner's cards, narrowed by wallet, sub-account type and fiat account; oldest first. */
  async list(owner: Owner, query: CardListQuery): Promise<CardList> {
    const filters: repo.CardFilters = {
      walletId: query.wallet_uuid,
      subAccountType: query.sub_account_type,
      fiatAccountId: query.fiat_account_id,
    }
    const [rows, total] = await Promise.all([
      repo.findCards(this.db, owner, filters, query),
      repo.countCards(this.db, owner, filters),
    ])
    return pageOf(rows.map(toCard), total, query)
  }

  /** @throws CardError CARD_NOT_FOUND also for another user's */
  async get(owner: Owner, id: string): Promise<Card> {
    const row = await repo.findCard(this.db, owner, id)
    if (!row) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    return toCard(row)
  }

  /**
   * The card with the full fiat account it spends from; the account's `type`
   * is the card's own account type.
   * @throws CardError CARD_NOT_FOUND
   */
  async detail(owner: Owner, id: string): Promise<CardDetail> {
    const card = await this.get(owner, id)
    const account = await fiatRepo.findFiatAccount(this.db, owner, { id: card.fiat_account.id })
    if (!account) throw new Error(`fiat account ${card.fiat_account.id} of card ${id} vanished`)
    return {
      ...card,
      fiat_account: { ...toFiatAccount(account), type: card.fiat_account.type },
    }
  }

  /**
   * Freeze, unfreeze or close. Closing a stand-alone card also returns what is
   * left on its own fiat account to the wallet (ledger sub-account →
   * user_wallet, with a CARD_PROVIDER_REFUND record) and cancels the account,
   * in the same transaction. A card on a shared account leaves the money there.
   * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT
   */
  async act(owner: Owner, id: string, action: CardAction): Promise<Card> {
    await this.db.transaction().execute(async (trx) => {
      const card = await repo.lockCard(trx, owner, id)
      if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
      const next = nextStatus(card.status, action)
      if (!next.ok) throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: next.current })
      const now = this.clock()
      await repo.setStatus(trx, card.id, next.status, now)
      if (next.status === 'CLOSED' && card.stand_alone) {
        await this.returnBalance(trx, owner, card, now)
      }
    })
    return this.get(owner, id)
  }

  private async returnBalance(
    trx: Transaction<DB>,
    owner: Owner,
    card: NonNullable<Awaited<ReturnType<typeof repo.lockCard>>>,
    now: Date,
  ): Promise<void> {
    const balance = await balanceOf(trx, card.ledger_account_id, card.currency_uuid, {
      lock: true,
    })
    if (balance > 0n) {
      const wallet = await walletAccounts(trx, owner.tenantId, card.wallet_id)
      if (!wallet) throw new Error(`wallet ${card.wallet_id} of card ${card.id} has no accounts`)
      await post(trx, {
        tenantId: owner.tenantId,
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
  async activate(owner: Owner, id: string, cvv: string): Promise<Card> {
    const now = this.clock()
    const refusal = await this.db.transaction().execute(async (trx) => {
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
      const pan = this.crypto.decryptPan(
        { tenantId: card.tenant_id, cardId: card.id },
        card.pan_ciphertext,
      )
      const printed = deriveCvv(this.crypto.cvk, pan, {
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
    return this.get(owner, id)
  }

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
  readonly chargeMonthly = async (job: Job, context: JobContext): Promise<JobResult> => {
    if (!job.tenantId) throw new Error(`monthly fee job ${job.id} has no tenant`)
    const tenantId = job.tenantId
    const cardId = String(job.payload.card_id)
    const next = await this.db.transaction().execute(async (trx) => {
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
          if (!done.has(period)) await this.#chargeMonthly(trx, card, fee, period, context.now)
        }
      }
      return anniversary(issued, due + 1)
    })
    return next ? { again: next } : undefined
  }

  async #chargeMonthly(
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

  /**
   * New limits, in the currency of the card's account; a closed card keeps its own.
   * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT, INVALID_LIMITS
   */
  async setLimits(owner: Owner, id: string, limits: CardLimits): Promise<Card> {
    const current = await repo.findCard(this.db, owner, id)
    if (!current) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    const minor = limitsOf(limits, current.decimals, '/body')
    await this.db.transaction().execute(async (trx) => {
      const card = await repo.lockCard(trx, owner, id)
      if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
      if (cardFinished(card.status)) {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      await repo.setLimits(trx, card.id, minor, this.clock())
    })
    return this.get(owner, id)
  }

  /**
   * Renames the card, once per request_id: the same request again answers the
   * card as it is (`replayed`), without renaming it back over a later rename.
   * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT (closed), IDEMPOTENCY_CONFLICT
   */
  async rename(
    owner: Owner,
    id: string,
    request: { nickName: string; requestId: string },
  ): Promise<{ card: Card; replayed: boolean }> {
    const nickName = request.nickName.trim()
    const replayed = await this.db.transaction().execute(async (trx) => {
      const card = await repo.lockCard(trx, owner, id)
      if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
      const earlier = await repo.findRenameRequest(trx, card.id, request.requestId)
      if (earlier) {
        if (earlier.nick_name !== nickName) throw new CardError({ kind: 'IDEMPOTENCY_CONFLICT' })
        return true
      }
      if (cardFinished(card.status)) {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      await repo.insertRenameRequest(trx, {
        cardId: card.id,
        requestId: request.requestId,
        nickName,
      })
      await repo.setNickName(trx, card.id, nickName, this.clock())
      return false
    })
    return { card: await this.get(owner, id), replayed }
  }

  /**
   * The secret exchange (contract/cards.ts SecretKeyBody): the card's number,
   * expiry and CVV sealed under the client's key, and a line in the reveal log.
   * The encrypted_key is remembered (its hash) in the same transaction, so it
   * opens the card's secrets at most once.
   * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT, SECRET_KEY_INVALID,
   *   SECRET_KEY_STALE, SECRET_KEY_REPLAYED
   */
  async revealSecrets(caller: Caller, id: string, encryptedKey: string): Promise<SecretKeyReply> {
    return this.db.transaction().execute(async (trx) => {
      const card = await repo.lockCard(trx, caller, id)
      if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
      if (!cardRevealable(card.status)) {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      const plaintext = this.crypto.decryptExchangeKey(encryptedKey)
      const exchange = plaintext && parseExchangePlaintext(plaintext)
      if (!exchange) throw new CardError({ kind: 'SECRET_KEY_INVALID' })
      const now = this.clock().getTime()
      if (!isFresh(exchange.timestamp, now)) {
        throw new CardError({ kind: 'SECRET_KEY_STALE' })
      }
      const fresh = await repo.insertExchangeKey(trx, {
        keyHash: exchangeKeyHash(encryptedKey),
        tenantId: caller.tenantId,
        cardId: card.id,
      })
      if (!fresh) throw new CardError({ kind: 'SECRET_KEY_REPLAYED' })
      await repo.pruneExchangeKeys(trx, new Date(now - EXCHANGE_KEY_MEMORY_MS))
      await repo.insertReveal(trx, {
        id: uuidv7(),
        tenantId: caller.tenantId,
        cardId: card.id,
        sessionId: caller.sessionId,
        kind: 'SECRETS',
      })
      const pan = this.crypto.decryptPan(
        { tenantId: card.tenant_id, cardId: card.id },
        card.pan_ciphertext,
      )
      const expiry = { month: card.expiry_month, year: card.expiry_year }
      const secrets: CardSecrets = {
        data: { pan, expiry: formatExpiry(expiry), cvv: deriveCvv(this.crypto.cvk, pan, expiry) },
      }
      return { success: true, encrypted: true, ...sealSecrets(exchange.key, secrets) } as const
    })
  }

  /**
   * A one-time code for the card, valid CARD_OTP_TTL_MS, kept only as a keyed
   * hash, and logged in the reveal log.
   * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT
   */
  async issueOtp(caller: Caller, id: string): Promise<CardOtp> {
    return this.db.transaction().execute(async (trx) => {
      const card = await repo.lockCard(trx, caller, id)
      if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
      if (!cardRevealable(card.status)) {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      const code = generateOtp()
      const expiresAt = new Date(this.clock().getTime() + CARD_OTP_TTL_MS)
      // A new code supersedes the card's earlier ones (consumeOtp reads only the
      // newest), so they go: one row per card, however often codes are asked for.
      // Keyed by the stored id, as the processor checks it: the route's `id` may
      // differ in case (a uuid path parameter is matched case-insensitively).
      await repo.deleteOtps(trx, card.id)
      await repo.insertOtp(trx, {
        id: uuidv7(),
        tenantId: caller.tenantId,
        cardId: card.id,
        codeHash: this.crypto.otpHash(card.id, code),
        expiresAt,
      })
      await repo.insertReveal(trx, {
        id: uuidv7(),
        tenantId: caller.tenantId,
        cardId: card.id,
        sessionId: caller.sessionId,
        kind: 'OTP',
      })
      return { code, expires_at: expiresAt.toISOString() }
    })
  }

  /** The card's reveal log, newest first. @throws CardError CARD_NOT_FOUND */
  async reveals(
    owner: Owner,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<CardRevealList> {
    const card = await this.get(owner, id)
    const [rows, total] = await Promise.all([
      repo.findReveals(this.db, card.id, page),
      repo.countReveals(this.db, card.id),
    ])
    return pageOf(
      rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        session_id: row.session_id,
        created_at: row.created_at.toISOString(),
      })),
      total,
      page,
    )
  }
}

/** What issuing a card writes, checked before its transaction. */
interface NewCardFacts {
  id: string
  walletId: string
  fiatAccountId: string
  program: repo.ProgramForCard
  standAlone: boolean
  formFactor: CardFormFactor
  nickName: string | undefined
  limits: LimitsMinor
  delivery: DeliveryAddress | null
}

/** The body fields a creation's key stands for (request_id aside), as sent. */
const issueFields = (request: IssueOptions) => ({
  form_factor: request.formFactor,
  nick_name: request.nickName ?? null,
  limits: request.limits ?? null,
  delivery_address: request.deliveryAddress ?? null,
})

/** The earlier answer under the key, or 409 when the key came with another request. */
function replayOf(
  earlier: { request_hash: string; first_response: unknown },
  hash: string,
): Issued {
  if (earlier.request_hash !== hash) {
    throw new CardError({ kind: 'IDEMPOTENCY_CONFLICT', of: 'create' })
  }
  return { card: earlier.first_response as Card, replayed: true }
}

/**
 * A PHYSICAL card's delivery address, trimmed (an empty line2 dropped); null
 * for a VIRTUAL card, which takes none.
 * @throws CardError DELIVERY_ADDRESS_REQUIRED, DELIVERY_ADDRESS_NOT_ALLOWED, INVALID_DELIVERY_ADDRESS
 */
function deliveryOf(
  formFactor: CardFormFactor,
  address: DeliveryAddress | undefined,
): DeliveryAddress | null {
  const field = '/body/delivery_address'
  if (formFactor === 'VIRTUAL') {
    if (!address) return null
    throw new CardError({
      kind: 'DELIVERY_ADDRESS_NOT_ALLOWED',
      fault: { field, message: 'A virtual card is not delivered: send no delivery address.' },
    })
  }
  if (!address) {
    throw new CardError({
      kind: 'DELIVERY_ADDRESS_REQUIRED',
      fault: { field, message: 'A physical card needs a delivery address.' },
    })
  }
  if (!isKnownCountry(address.country)) {
    throw new CardError({
      kind: 'INVALID_DELIVERY_ADDRESS',
      fault: { field: `${field}/country`, message: 'Not a known country.' },
    })
  }
  const line2 = address.line2?.trim()
  return {
    recipient_name: address.recipient_name.trim(),
    line1: address.line1.trim(),
    ...(line2 ? { line2 } : {}),
    city: address.city.trim(),
    postal_code: address.postal_code.trim(),
    country: address.country,
  }
}

/** 422 FIAT_ACCOUNT_UNAVAILABLE: not ACTIVE, or a stand-alone card's own account. */
function accountUnavailable(status: FiatAccountStatus): CardError {
  return new CardError({
    kind: 'FIAT_ACCOUNT_UNAVAILABLE',
    accountStatus: status,
    fault: {
      field: '/body/fiat_account_id',
      message:
        status !== 'ACTIVE'
          ? `This fiat account is ${status}: it takes no new card.`
          : 'This fiat account belongs to a stand-alone card: it takes no other card.',
    },
  })
}

/**
 * The security code printed on a card's plastic, as the card factory knows it
 * (the number decrypted, the CVV derived). Never answered by any route: the
 * sandbox demo and tests use it to activate a card as its holder would.
 */
export async function printedCvv(
  db: Kysely<DB>,
  crypto: CardCrypto,
  card: { tenantId: string; cardId: string },
): Promise<string> {
  const row = await repo.findStoredNumber(db, card.tenantId, card.cardId)
  if (!row) throw new Error(`card ${card.cardId} not found`)
  const pan = crypto.decryptPan(card, row.pan_ciphertext)
  return deriveCvv(crypto.cvk, pan, { month: row.expiry_month, year: row.expiry_year })
}

/**
 * The card network's check of a one-time code (issueOtp's): true when `code`
 * is the card's current code, unexpired at `now` and unused — which it then
 * spends. Keyed hashes compared in constant time. Runs in the caller's
 * transaction, which holds the card's row lock (as issueOtp takes it), so a
 * code is spent once however many messages carry it.
 */
export async function consumeOtp(
  trx: Transaction<DB>,
  crypto: CardCrypto,
  card: { cardId: string; code: string; now: Date },
): Promise<boolean> {
  const current = await repo.findCurrentOtp(trx, card.cardId)
  if (!current || current.used_at !== null || current.expires_at <= card.now) return false
  const typed = Buffer.from(crypto.otpHash(card.cardId, card.code))
  const stored = Buffer.from(current.code_hash)
  if (typed.length !== stored.length || !timingSafeEqual(typed, stored)) return false
  return repo.markOtpUsed(trx, current.id, card.now)
}

function checkFormFactor(program: repo.ProgramForCard, formFactor: CardFormFactor) {
  if (!program.form_factors.includes(formFactor)) {
    throw new CardError({
      kind: 'FORM_FACTOR_UNAVAILABLE',
      fault: {
        field: '/body/form_factor',
        message: `This program issues ${program.form_factors.join(' and ')} cards only.`,
      },
    })
  }
}

/**
 * Limits in minor units of the account's currency, the issuer's defaults when
 * none are given. `at` is where the limits sit in the body.
 * @throws CardError INVALID_LIMITS naming every bad field
 */
function limitsOf(
  limits: CardLimits | undefined,
  decimals: number,
  at = '/body/limits',
): LimitsMinor {
  if (!limits) return defaultLimits(decimals)
  const faults: BodyFault[] = []
  const minor = {} as LimitsMinor
  for (const field of ['per_transaction', 'daily', 'monthly'] as const) {
    try {
      minor[field] = toMinor(limits[field], decimals)
    } catch (error) {
      if (!(error instanceof AmountError)) throw error
      faults.push({ field: `${at}/${field}`, message: `At most ${decimals} decimal places.` })
      minor[field] = 1n
    }
  }
  if (faults.length === 0) {
    for (const fault of limitFaults(minor)) {
      faults.push({ field: `${at}/${fault.field}`, message: fault.message })
    }
  }
  if (faults.length > 0) throw new CardError({ kind: 'INVALID_LIMITS', faults })
  return minor
}

export const toCard = (row: repo.CardRow): Card => ({
  id: row.id,
  wallet_uuid: row.wallet_id,
  program_id: row.program_id,
  nick_name: row.nick_name,
  last4: row.last4,
  expiry_month: row.expiry_month,
  expiry_year: row.expiry_year,
  status: row.status,
  form_factor: row.form_factor,
  card_type: row.card_type,
  currency_uuid: row.currency_uuid,
  currency: row.currency,
  stand_alone: row.stand_alone,
  fiat_account: { id: row.fiat_account_id, type: row.sub_account_type },
  limits: {
    per_transaction: fromMinor(BigInt(row.limit_per_transaction_minor), row.decimals),
    daily: fromMinor(BigInt(row.limit_daily_minor), row.decimals),
    monthly: fromMinor(BigInt(row.limit_monthly_minor), row.decimals),
  },
  delivery:
    row.delivery_status && row.delivery_address && row.delivery_updated_at
      ? {
          address: row.delivery_address,
          status: row.delivery_status,
          updated_at: row.delivery_updated_at.toISOString(),
        }
      : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
