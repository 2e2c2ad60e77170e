import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CardCrypto, sealSecrets } from '../../server/domain/cards/card-crypto.ts'
import { isFresh, parseExchangePlaintext } from '../../server/domain/cards/rules.ts'
import {
  type CardSecretsDeps,
  CardSecretsError,
  createCardSecrets,
  EXCHANGE_FAILED,
  PUBLIC_KEY_SETTING,
} from '../../src/workers/card-secrets.ts'

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
})
const serverCrypto = new CardCrypto({
  cardDataKey: new Uint8Array(32).fill(7),
  cardCvk: new Uint8Array(16).fill(9),
  cardSecretPrivateKey: privateKey,
})

const CARD = '0192f3a4-5b6c-7d8e-9f00-112233445566'
const SECRETS = { pan: '4000123412341234', expiry: '11/29', cvv: '042' }

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })

/**
 * The server's side of the exchange, with its own code: RSA-OAEP decryption,
 * the plaintext parser, the freshness rule, a replay guard, AES-256-CBC sealing.
 */
function fakeServer(options: { publicKey?: string | null; reply?: unknown } = {}) {
  const seen = new Set<string>()
  const requests: Request[] = []
  const send = async (request: Request) => {
    requests.push(request)
    const path = new URL(request.url).pathname
    if (path === '/api/v1/issuing/config/secret-key') {
      if (options.publicKey === null) return json({ code: 'NOT_FOUND' }, 404)
      return json({
        algorithm: 'RSA-OAEP-256',
        public_key_pem: options.publicKey ?? serverCrypto.publicKeyPem,
      })
    }
    if (path === `/api/v1/issuing/cards/${CARD}/sensitive/secretkey`) {
      if (options.reply !== undefined) return json(options.reply)
      const { encrypted_key } = (await request.json()) as { encrypted_key: string }
      const plaintext = serverCrypto.decryptExchangeKey(encrypted_key)
      const parsed = plaintext && parseExchangePlaintext(plaintext)
      if (!parsed) return json({ code: 'SECRET_KEY_INVALID' }, 422)
      if (!isFresh(parsed.timestamp, Date.now())) return json({ code: 'SECRET_KEY_STALE' }, 422)
      if (seen.has(encrypted_key)) return json({ code: 'SECRET_KEY_REPLAYED' }, 409)
      seen.add(encrypted_key)
      return json({ success: true, encrypted: true, ...sealSecrets(parsed.key, { data: SECRETS }) })
    }
    return json({ code: 'NOT_FOUND' }, 404)
  }
  return { send, requests }
}

const deps = (server: ReturnType<typeof fakeServer>, extra: Partial<CardSecretsDeps> = {}) => ({
  send: server.send,
  v1Base: '/api/v1',
  origin: 'http://localhost',
  ...extra,
})

describe('card secrets exchange', () => {
  it('round-trips with the server: the page gets pan, expiry and cvv only', async () => {
    const server = fakeServer()
    const secrets = createCardSecrets(deps(server))
    const revealed = await secrets.reveal(CARD)
    expect(revealed).toStrictEqual(SECRETS)
    expect(Object.keys(revealed).sort()).toEqual(['cvv', 'expiry', 'pan'])
  })

  it('sends a fresh key every time, and fetches the public key once', async () => {
    const server = fakeServer()
    const secrets = createCardSecrets(deps(server))
    await secrets.reveal(CARD)
    await secrets.reveal(CARD)
    const exchanges = server.requests.filter((r) => r.method === 'POST')
    const keyFetches = server.requests.filter((r) => r.url.endsWith('/config/secret-key'))
    expect(exchanges).toHaveLength(2)
    expect(keyFetches).toHaveLength(1)
    const bodies = await Promise.all(exchanges.map((r) => r.clone().text()))
    expect(bodies[0]).not.toBe(bodies[1])
    expect(bodies.join()).not.toContain(SECRETS.pan)
  })

  it('uses a pinned build-time key without asking the server', async () => {
    const server = fakeServer({ publicKey: null })
    const secrets = createCardSecrets(
      deps(server, { pinnedPublicKey: serverCrypto.publicKeyPem.replace(/\n/g, '\\n') }),
    )
    await expect(secrets.reveal(CARD)).resolves.toStrictEqual(SECRETS)
    expect(server.requests.some((r) => r.url.endsWith('/config/secret-key'))).toBe(false)
  })

  it(`fails with '${PUBLIC_KEY_SETTING} is not set' when no public key is published`, async () => {
    for (const publicKey of [null, '', '  ']) {
      const server = fakeServer({ publicKey })
      const secrets = createCardSecrets(deps(server, { pinnedPublicKey: '' }))
      await expect(secrets.reveal(CARD)).rejects.toThrow(/^VITE_CARD_SECRET_PUBLIC_KEY is not set$/)
      expect(server.requests.some((r) => r.method === 'POST')).toBe(false)
    }
  })

  it.each([
    ['no success', { encrypted: true, data: 'AAAA', iv: 'AAAA' }],
    ['success false', { success: false, encrypted: true, data: 'AAAA', iv: 'AAAA' }],
    ['not encrypted', { success: true, encrypted: false, data: 'AAAA', iv: 'AAAA' }],
    ['no data', { success: true, encrypted: true, iv: 'AAAA' }],
    ['empty data', { success: true, encrypted: true, data: '', iv: 'AAAA' }],
    ['no iv', { success: true, encrypted: true, data: 'AAAA' }],
    ['null', null],
  ])("fails with 'Failed to get encrypted secret key' on a reply with %s", async (_, reply) => {
    const secrets = createCardSecrets(deps(fakeServer({ reply })))
    const failure = secrets.reveal(CARD)
    await expect(failure).rejects.toThrow(/^Failed to get encrypted secret key$/)
    await expect(failure).rejects.toBeInstanceOf(CardSecretsError)
  })

  it('fails with the same message when the reply does not decrypt under the key', async () => {
    const sealed = sealSecrets(new Uint8Array(32).fill(1), { data: SECRETS })
    const secrets = createCardSecrets(
      deps(fakeServer({ reply: { success: true, encrypted: true, ...sealed } })),
    )
    await expect(secrets.reveal(CARD)).rejects.toThrow(EXCHANGE_FAILED)
  })

  it('a refused exchange carries the status and problem for the page', async () => {
    const secrets = createCardSecrets(deps(fakeServer(), { now: () => Date.now() - 120_000 }))
    const error = await secrets.reveal(CARD).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CardSecretsError)
    expect((error as CardSecretsError).message).toBe(EXCHANGE_FAILED)
    expect((error as CardSecretsError).failure).toMatchObject({
      status: 422,
      problem: { code: 'SECRET_KEY_STALE' },
    })
  })

  it('reports retry_after of a rate-limited reveal', async () => {
    const send = async (request: Request) =>
      request.method === 'POST'
        ? json({ code: 'RATE_LIMITED', retry_after: 42 }, 429, { 'Retry-After': '42' })
        : json({ algorithm: 'RSA-OAEP-256', public_key_pem: serverCrypto.publicKeyPem })
    const secrets = createCardSecrets({ send, v1Base: '/api/v1', origin: 'http://localhost' })
    const error = (await secrets.reveal(CARD).catch((e: unknown) => e)) as CardSecretsError
    expect(error.failure).toMatchObject({ status: 429, retryAfter: 42 })
  })
})
