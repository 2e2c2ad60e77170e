import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  Card,
  CardDetail,
  CardFormFactor,
  CardLimits,
  CardList,
  CardListQuery,
  CardOtp,
  CardRevealList,
  CardSecrets,
  SecretKeyReply,
} from '../../../contract/cards.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { programRefusal } from '../fiat-accounts/rules.ts'
import { toFiatAccount } from '../fiat-accounts/service.ts'
import { transfer } from '../ledger/rules.ts'
import { openSubAccount, post, walletAccounts } from '../ledger/service.ts'
import { pageOf } from '../page.ts'
import { findWallet, type Owner } from '../wallets/repository.ts'
import { type CardCrypto, exchangeKeyHash, sealSecrets } from './card-crypto.ts'
import { type BodyFault, CardError } from './errors.ts'
import * as repo from './repository.ts'
import {
  CARD_OTP_TTL_MS,
  type CardAction,
  canReveal,
  defaultLimits,
  deriveCvv,
  expiryFor,
  formatExpiry,
  generateOtp,
  generatePan,
  isFresh,
  type LimitsMinor,
  limitFaults,
  nextStatus,
  parseExchangePlaintext,
} from './rules.ts'

/** The caller: the owner, and the session a reveal is logged under. */
export interface Caller extends Owner {
  sessionId: string
}

interface IssueOptions {
  formFactor: CardFormFactor
  nickName?: string
  limits?: CardLimits
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
  constructor(
    private readonly db: Kysely<DB>,
    private readonly crypto: CardCrypto,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * A stand-alone card: a new fiat account of its own under an ACTIVE prepaid
   * program, its ledger sub-account and the card, in one transaction.
   * @throws CardError WALLET_NOT_FOUND, PROGRAM_*, FORM_FACTOR_UNAVAILABLE, INVALID_LIMITS
   */
  async createStandAlone(
    owner: Owner,
    request: IssueOptions & { walletId: string; programId: string },
  ): Promise<Card> {
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

    const id = uuidv7()
    await this.db.transaction().execute(async (trx) => {
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
      await this.insertNewCard(trx, owner, {
        id,
        walletId: request.walletId,
        fiatAccountId,
        program,
        standAlone: true,
        formFactor: request.formFactor,
        nickName: request.nickName,
        limits,
      })
    })
    return this.get(owner, id)
  }

  /**
   * A card spending from one of the owner's ACTIVE fiat accounts, under that
   * account's program (which may since have been archived: the account stays served).
   * @throws CardError FIAT_ACCOUNT_NOT_FOUND, FIAT_ACCOUNT_UNAVAILABLE, FORM_FACTOR_UNAVAILABLE, INVALID_LIMITS
   */
  async createOnAccount(
    owner: Owner,
    request: IssueOptions & { fiatAccountId: string },
  ): Promise<Card> {
    const field = '/body/fiat_account_id'
    const account = await fiatRepo.findFiatAccount(this.db, owner, { id: request.fiatAccountId })
    if (!account) {
      throw new CardError({
        kind: 'FIAT_ACCOUNT_NOT_FOUND',
        fault: { field, message: 'No such fiat account.' },
      })
    }
    if (account.status !== 'ACTIVE' || (await repo.hasStandAloneCard(this.db, account.id))) {
      throw new CardError({
        kind: 'FIAT_ACCOUNT_UNAVAILABLE',
        accountStatus: account.status,
        fault: {
          field,
          message:
            account.status !== 'ACTIVE'
              ? `This fiat account is ${account.status}: it takes no new card.`
              : 'This fiat account belongs to a stand-alone card: it takes no other card.',
        },
      })
    }
    const program = await repo.findProgramForCard(this.db, owner.tenantId, account.program_id)
    if (!program) throw new Error(`program ${account.program_id} of account ${account.id} vanished`)
    checkFormFactor(program, request.formFactor)
    const limits = limitsOf(request.limits, program.decimals)

    const id = uuidv7()
    await this.db.transaction().execute((trx) =>
      this.insertNewCard(trx, owner, {
        id,
        walletId: account.wallet_id,
        fiatAccountId: account.id,
        program,
        standAlone: false,
        formFactor: request.formFactor,
        nickName: request.nickName,
        limits,
      }),
    )
    return this.get(owner, id)
  }

  private async insertNewCard(
    trx: Transaction<DB>,
    owner: Owner,
    card: {
      id: string
      walletId: string
      fiatAccountId: string
      program: repo.ProgramForCard
      standAlone: boolean
      formFactor: CardFormFactor
      nickName: string | undefined
      limits: LimitsMinor
    },
  ): Promise<void> {
    const expiry = expiryFor(this.clock())
    for (let attempt = 0; attempt < PAN_ATTEMPTS; attempt++) {
      const pan = generatePan(card.program.bin)
      const inserted = await repo.insertCard(trx, {
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
      })
      if (inserted) return
    }
    throw new Error(`no free card number under BIN ${card.program.bin} after ${PAN_ATTEMPTS} draws`)
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
      await repo.setStatus(trx, id, next.status, now)
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
    const balance = await repo.ledgerBalance(trx, card.ledger_account_id, card.currency_uuid)
    if (balance > 0n) {
      const wallet = await walletAccounts(trx, owner.tenantId, card.wallet_id)
      if (!wallet) throw new Error(`wallet ${card.wallet_id} of card ${card.id} has no accounts`)
      await post(trx, {
        tenantId: owner.tenantId,
        kind: 'card_closed',
        idempotencyKey: `card:${card.id}:closed`,
        postings: transfer(card.ledger_account_id, wallet.user_wallet, card.currency_uuid, balance),
      })
      await repo.insertRefundRecord(trx, {
        id: uuidv7(),
        tenantId: owner.tenantId,
        walletId: card.wallet_id,
        currencyUuid: card.currency_uuid,
        amountMinor: balance,
        cardId: card.id,
        at: now,
      })
    }
    await repo.setFiatAccountStatus(trx, card.fiat_account_id, 'CANCELED', now)
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
      if (card.status === 'CLOSED') {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      await repo.setLimits(trx, id, minor, this.clock())
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
      const earlier = await repo.findRenameRequest(trx, id, request.requestId)
      if (earlier) {
        if (earlier.nick_name !== nickName) throw new CardError({ kind: 'IDEMPOTENCY_CONFLICT' })
        return true
      }
      if (card.status === 'CLOSED') {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      await repo.insertRenameRequest(trx, { cardId: id, requestId: request.requestId, nickName })
      await repo.setNickName(trx, id, nickName, this.clock())
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
      if (!canReveal(card.status)) {
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
        cardId: id,
      })
      if (!fresh) throw new CardError({ kind: 'SECRET_KEY_REPLAYED' })
      await repo.pruneExchangeKeys(trx, new Date(now - EXCHANGE_KEY_MEMORY_MS))
      await repo.insertReveal(trx, {
        id: uuidv7(),
        tenantId: caller.tenantId,
        cardId: id,
        sessionId: caller.sessionId,
        kind: 'SECRETS',
      })
      const pan = this.crypto.decryptPan(
        { tenantId: card.tenant_id, cardId: id },
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
      if (!canReveal(card.status)) {
        throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
      }
      const code = generateOtp()
      const expiresAt = new Date(this.clock().getTime() + CARD_OTP_TTL_MS)
      await repo.insertOtp(trx, {
        id: uuidv7(),
        tenantId: caller.tenantId,
        cardId: id,
        codeHash: this.crypto.otpHash(id, code),
        expiresAt,
      })
      await repo.insertReveal(trx, {
        id: uuidv7(),
        tenantId: caller.tenantId,
        cardId: id,
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
    await this.get(owner, id)
    const [rows, total] = await Promise.all([
      repo.findReveals(this.db, id, page),
      repo.countReveals(this.db, id),
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
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
