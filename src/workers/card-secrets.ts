import type { SecretKeyBody, SecretPublicKey } from '../../contract/cards.ts'
import type { Problem } from '../../contract/problem.ts'

/**
 * The card-secret exchange of docs/product.md §7 (contract/cards.ts SecretKeyBody),
 * without the thread around it: card-secrets.worker.ts runs it in a worker,
 * tests run it against the server's own crypto.
 *
 * A fresh 32-byte key K per reveal, sealed with the server's RSA public key
 * (RSA-OAEP, SHA-256) together with the time; the answer is AES-256-CBC under
 * K. K never leaves this module and is zeroed once imported.
 */

/** What the main thread receives, and nothing else. */
export interface RevealedSecrets {
  pan: string
  expiry: string
  cvv: string
}

/** A non-2xx answer, as plain data: errors cross the thread boundary by structured clone. */
export interface ExchangeFailure {
  status: number
  problem: Problem | undefined
  retryAfter: number | undefined
}

/** docs/product.md §5, word for word. */
export const EXCHANGE_FAILED = 'Failed to get encrypted secret key'
/** The build-time setting that pins the public key; also the name in '<name> is not set'. */
export const PUBLIC_KEY_SETTING = 'VITE_CARD_SECRET_PUBLIC_KEY'
export const notSetMessage = (name: string) => `${name} is not set`

/**
 * The exchange failed (docs/product.md §5's message). When the server refused it,
 * `failure` says how, so the page can tell "card closed" from "too many reveals".
 */
export class CardSecretsError extends Error {
  constructor(
    message: string,
    readonly failure?: ExchangeFailure,
  ) {
    super(message)
    this.name = 'CardSecretsError'
  }
}

export interface CardSecretsDeps {
  /** Sends an API request with the session attached (the auth-proxy core). */
  send: (request: Request) => Promise<Response>
  /** The v1 base, absolute or same-origin ("/api/v1"). */
  v1Base: string
  /** The origin relative bases resolve against. */
  origin: string
  /** A pinned PEM (build time); when empty, the server's published key is used. */
  pinnedPublicKey?: string | undefined
  crypto?: Crypto
  now?: () => number
}

export interface CardSecrets {
  reveal(cardId: string): Promise<RevealedSecrets>
}

const RSA = { name: 'RSA-OAEP', hash: 'SHA-256' } as const

export function createCardSecrets(deps: CardSecretsDeps): CardSecrets {
  const webCrypto = deps.crypto ?? globalThis.crypto
  const now = deps.now ?? Date.now
  const url = (path: string) => new URL(`${deps.v1Base.replace(/\/$/, '')}${path}`, deps.origin)

  // The key is public, so keeping it for the worker's lifetime is harmless; a
  // failed fetch or import is not kept, so the next reveal asks again.
  let publicKey: Promise<CryptoKey> | undefined
  const serverKey = () => {
    publicKey ??= loadPublicKey().catch((error: unknown) => {
      publicKey = undefined
      throw error
    })
    return publicKey
  }

  async function loadPublicKey(): Promise<CryptoKey> {
    const pem = deps.pinnedPublicKey?.trim() || (await publishedPem())
    if (!pem) throw new CardSecretsError(notSetMessage(PUBLIC_KEY_SETTING))
    return webCrypto.subtle.importKey('spki', pemToDer(pem), RSA, false, ['encrypt'])
  }

  /** The server's key, or undefined when it publishes none. */
  async function publishedPem(): Promise<string | undefined> {
    const response = await deps.send(new Request(url('/issuing/config/secret-key')))
    if (response.status === 404) return undefined
    if (!response.ok) throw new CardSecretsError(EXCHANGE_FAILED, await failureOf(response))
    const body = (await response.json().catch(() => undefined)) as
      | Partial<SecretPublicKey>
      | undefined
    return typeof body?.public_key_pem === 'string' && body.public_key_pem.trim()
      ? body.public_key_pem
      : undefined
  }

  async function reveal(cardId: string): Promise<RevealedSecrets> {
    const rsa = await serverKey()
    const raw = webCrypto.getRandomValues(new Uint8Array(32))
    const plaintext = new TextEncoder().encode(
      JSON.stringify({ key: toBase64(raw), timestamp: now() }),
    )
    let sealed: ArrayBuffer
    let key: CryptoKey
    try {
      sealed = await webCrypto.subtle.encrypt(RSA, rsa, plaintext)
      // Not extractable: from here on K exists only inside WebCrypto.
      key = await webCrypto.subtle.importKey('raw', raw, 'AES-CBC', false, ['decrypt'])
    } finally {
      raw.fill(0)
      plaintext.fill(0)
    }

    const body: SecretKeyBody = { encrypted_key: toBase64(new Uint8Array(sealed)) }
    const response = await deps.send(
      new Request(url(`/issuing/cards/${encodeURIComponent(cardId)}/sensitive/secretkey`), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
    if (!response.ok) throw new CardSecretsError(EXCHANGE_FAILED, await failureOf(response))
    const reply = (await response.json().catch(() => undefined)) as Record<string, unknown> | null
    const { success, encrypted, data, iv } = reply ?? {}
    if (
      !success ||
      !encrypted ||
      typeof data !== 'string' ||
      !data ||
      typeof iv !== 'string' ||
      !iv
    ) {
      throw new CardSecretsError(EXCHANGE_FAILED)
    }

    let opened: unknown
    try {
      const clear = await webCrypto.subtle.decrypt(
        { name: 'AES-CBC', iv: fromBase64(iv) },
        key,
        fromBase64(data),
      )
      opened = JSON.parse(new TextDecoder().decode(clear))
    } catch {
      throw new CardSecretsError(EXCHANGE_FAILED)
    }
    const inner = (opened as { data?: Record<string, unknown> } | null)?.data
    const { pan, expiry, cvv } = inner ?? {}
    if (typeof pan !== 'string' || typeof expiry !== 'string' || typeof cvv !== 'string') {
      throw new CardSecretsError(EXCHANGE_FAILED)
    }
    // Only the three fields, copied: nothing else of the answer goes back.
    return { pan, expiry, cvv }
  }

  return { reveal }
}

async function failureOf(response: Response): Promise<ExchangeFailure> {
  const problem = (await response.json().catch(() => undefined)) as Problem | undefined
  const header = response.headers.get('Retry-After')
  return {
    status: response.status,
    problem,
    retryAfter:
      problem?.retry_after ?? (header && /^\d+$/.test(header) ? Number(header) : undefined),
  }
}

/** SubjectPublicKeyInfo DER out of a "-----BEGIN PUBLIC KEY-----" PEM (escaped newlines allowed). */
export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const text = pem.replace(/\\n/g, '\n')
  const match = /-----BEGIN PUBLIC KEY-----([\s\S]+?)-----END PUBLIC KEY-----/.exec(text)
  if (!match?.[1]) throw new CardSecretsError('The card secret public key is not a PEM public key')
  return fromBase64(match[1].replace(/\s+/g, ''))
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
