import { timingSafeEqual } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import {
  type CardOtp,
  type CardRevealList,
  type CardSecrets,
  cardRevealable,
  type SecretKeyReply,
} from '../../../contract/cards.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import { pageOf } from '../page.ts'
import { type CardCrypto, exchangeKeyHash, sealSecrets } from './card-crypto.ts'
import type { Caller, CardDeps } from './card-deps.ts'
import { CardError } from './errors.ts'
import { getCard } from './read-cards.ts'
import * as repo from './repository.ts'
import {
  CARD_OTP_TTL_MS,
  deriveCvv,
  formatExpiry,
  generateOtp,
  isFresh,
  parseExchangePlaintext,
} from './rules.ts'
import * as secretRepo from './secret-repository.ts'

/**
 * How long an accepted encrypted_key is remembered: well past the 120 s after
 * which it is refused as stale anyway (repository.pruneExchangeKeys), with
 * room for a database clock that differs from the server's.
 */
const EXCHANGE_KEY_MEMORY_MS = 10 * 60_000

/**
 * The secret exchange (contract/cards.ts SecretKeyBody): the card's number,
 * expiry and CVV sealed under the client's key, and a line in the reveal log.
 * The encrypted_key is remembered (its hash) in the same transaction, so it
 * opens the card's secrets at most once.
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT, SECRET_KEY_INVALID,
 *   SECRET_KEY_STALE, SECRET_KEY_REPLAYED
 */
export async function revealSecrets(
  deps: CardDeps,
  caller: Caller,
  id: string,
  encryptedKey: string,
): Promise<SecretKeyReply> {
  return deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCard(trx, caller, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    if (!cardRevealable(card.status)) {
      throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
    }
    const plaintext = deps.crypto.decryptExchangeKey(encryptedKey)
    const exchange = plaintext && parseExchangePlaintext(plaintext)
    if (!exchange) throw new CardError({ kind: 'SECRET_KEY_INVALID' })
    const now = deps.clock().getTime()
    if (!isFresh(exchange.timestamp, now)) {
      throw new CardError({ kind: 'SECRET_KEY_STALE' })
    }
    const fresh = await secretRepo.insertExchangeKey(trx, {
      keyHash: exchangeKeyHash(encryptedKey),
      tenantId: caller.tenantId,
      cardId: card.id,
    })
    if (!fresh) throw new CardError({ kind: 'SECRET_KEY_REPLAYED' })
    await secretRepo.pruneExchangeKeys(trx, new Date(now - EXCHANGE_KEY_MEMORY_MS))
    await secretRepo.insertReveal(trx, {
      id: uuidv7(),
      tenantId: caller.tenantId,
      cardId: card.id,
      sessionId: caller.sessionId,
      kind: 'SECRETS',
    })
    const pan = deps.crypto.decryptPan(
      { tenantId: card.tenant_id, cardId: card.id },
      card.pan_ciphertext,
    )
    const expiry = { month: card.expiry_month, year: card.expiry_year }
    const secrets: CardSecrets = {
      data: { pan, expiry: formatExpiry(expiry), cvv: deriveCvv(deps.crypto.cvk, pan, expiry) },
    }
    return { success: true, encrypted: true, ...sealSecrets(exchange.key, secrets) } as const
  })
}

/**
 * A one-time code for the card, valid CARD_OTP_TTL_MS, kept only as a keyed
 * hash, and logged in the reveal log.
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT
 */
export async function issueOtp(deps: CardDeps, caller: Caller, id: string): Promise<CardOtp> {
  return deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCard(trx, caller, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    if (!cardRevealable(card.status)) {
      throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
    }
    const code = generateOtp()
    const expiresAt = new Date(deps.clock().getTime() + CARD_OTP_TTL_MS)
    // A new code supersedes the card's earlier ones (consumeOtp reads only the
    // newest), so they go: one row per card, however often codes are asked for.
    // Keyed by the stored id, as the processor checks it: the route's `id` may
    // differ in case (a uuid path parameter is matched case-insensitively).
    await secretRepo.deleteOtps(trx, card.id)
    await secretRepo.insertOtp(trx, {
      id: uuidv7(),
      tenantId: caller.tenantId,
      cardId: card.id,
      codeHash: deps.crypto.otpHash(card.id, code),
      expiresAt,
    })
    await secretRepo.insertReveal(trx, {
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
export async function reveals(
  deps: CardDeps,
  owner: Owner,
  id: string,
  page: { limit: number; offset: number },
): Promise<CardRevealList> {
  const card = await getCard(deps, owner, id)
  const [rows, total] = await Promise.all([
    secretRepo.findReveals(deps.db, card.id, page),
    secretRepo.countReveals(deps.db, card.id),
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
  const row = await secretRepo.findStoredNumber(db, card.tenantId, card.cardId)
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
  const current = await secretRepo.findCurrentOtp(trx, card.cardId)
  if (!current || current.used_at !== null || current.expires_at <= card.now) return false
  const typed = Buffer.from(crypto.otpHash(card.cardId, card.code))
  const stored = Buffer.from(current.code_hash)
  if (typed.length !== stored.length || !timingSafeEqual(typed, stored)) return false
  return secretRepo.markOtpUsed(trx, current.id, card.now)
}
