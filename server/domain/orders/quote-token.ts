import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { OrderTarget, OrderType } from '../../../contract/orders.ts'
import type { StoredFee, StoredPayee } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'

/**
 * Firm quotes as signed tokens (issue 29): `GET /orders/calc` writes nothing,
 * and placing reads the quote from its `quote_id` alone. The app asks for a
 * quote every few seconds while a form is open, so a table of them grew with
 * every keystroke and needed a job to prune it; a token costs nothing to keep.
 *
 * Layout: `<key id>.<payload>.<mac>`, each part base64url. The payload is a
 * random nonce, then the priced quote (FIELDS' order), as a JSON array: two
 * quotes of the same terms in the same millisecond are still two quotes, each
 * placing its own order (orders.quote_hash is unique). The MAC (HMAC-SHA256, whole)
 * covers a version, the tenant and the person it was given to, the key id
 * and the payload: the owner is not carried, only signed, so another
 * person's or tenant's token fails the MAC as a forged one does. The key id
 * is the first 6 bytes of the key's SHA-256: a rotation needs no names.
 */

const VERSION = 'finplatform quote v1'
const MAC_LENGTH = 32
const NONCE_BYTES = 9
const MAC_TEXT = /^[A-Za-z0-9_-]{43}$/
const PART = /^[A-Za-z0-9_-]+$/

/** A priced quote as placing reads it back; `id` is the token (the contract's quote_id). */
export interface FirmQuote {
  id: string
  wallet_id: string
  order_type: OrderType
  from_currency_uuid: string
  to_currency_uuid: string
  amount_from_minor: string
  amount_to_minor: string
  rate: string
  fees: StoredFee[]
  total_minor: string
  target: OrderTarget
  payee: StoredPayee | null
  expires_at: Date
  created_at: Date
}

export type QuoteTerms = Omit<FirmQuote, 'id'>

/** The payload's positions; the dates travel as epoch milliseconds. */
const FIELDS = [
  'wallet_id',
  'order_type',
  'from_currency_uuid',
  'to_currency_uuid',
  'amount_from_minor',
  'amount_to_minor',
  'rate',
  'fees',
  'total_minor',
  'target',
  'payee',
  'expires_at',
  'created_at',
] as const satisfies readonly (keyof QuoteTerms)[]

interface SigningKey {
  id: string
  key: Buffer
}

export class QuoteTokens {
  readonly #signing: SigningKey
  readonly #keys: ReadonlyMap<string, Buffer>

  /** `keys`: the current key first, then those rotated out but still accepted. */
  constructor(keys: readonly Uint8Array[]) {
    const named = keys.map((key) => ({ id: keyId(key), key: Buffer.from(key) }))
    if (!named[0]) throw new Error('QuoteTokens needs at least one key')
    this.#signing = named[0]
    this.#keys = new Map(named.map(({ id, key }) => [id, key]))
  }

  /** The quote's token, signed with the current key for `owner` alone. */
  sign(owner: Owner, terms: QuoteTerms): string {
    const values = FIELDS.map((field) => {
      const value = terms[field]
      return value instanceof Date ? value.getTime() : value
    })
    const nonce = randomBytes(NONCE_BYTES).toString('base64url')
    const payload = Buffer.from(JSON.stringify([nonce, ...values])).toString('base64url')
    const signed = `${this.#signing.id}.${payload}`
    return `${signed}.${mac(this.#signing.key, owner, signed).toString('base64url')}`
  }

  /**
   * The quote `token` carries, expired or not (placing decides what expiry
   * means), when a listed key signed it for `owner`; undefined for anything
   * else: malformed, altered, another person's or tenant's, or signed with a
   * key no longer listed.
   */
  open(owner: Owner, token: string): FirmQuote | undefined {
    const [id, payload, given, ...rest] = token.split('.')
    if (rest.length > 0 || !id || !payload || !given) return undefined
    if (!PART.test(payload) || !MAC_TEXT.test(given)) return undefined
    const key = this.#keys.get(id)
    if (!key) return undefined
    const expected = mac(key, owner, `${id}.${payload}`)
    const actual = Buffer.from(given, 'base64url')
    if (actual.length !== MAC_LENGTH || !timingSafeEqual(actual, expected)) return undefined
    const [, ...values] = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as unknown[]
    const terms = Object.fromEntries(FIELDS.map((field, i) => [field, values[i]])) as Record<
      (typeof FIELDS)[number],
      unknown
    >
    return {
      ...(terms as unknown as QuoteTerms),
      expires_at: new Date(terms.expires_at as number),
      created_at: new Date(terms.created_at as number),
      id: token,
    }
  }
}

/**
 * What orders keep unique per tenant for the quote they placed (orders.quote_hash):
 * short and fixed in size, where the token is neither. Hex, so the idempotency
 * key made of it (`quote:<hash>`) reads the same in any case.
 */
export function quoteHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

function keyId(key: Uint8Array): string {
  return createHash('sha256').update(key).digest().subarray(0, 6).toString('base64url')
}

function mac(key: Buffer, owner: Owner, signed: string): Buffer {
  return createHmac('sha256', key)
    .update(`${VERSION}\n${owner.tenantId}\n${owner.userId}\n${signed}`)
    .digest()
}
