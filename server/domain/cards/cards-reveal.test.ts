import { constants, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import type {
  CardOtp,
  CardRevealList,
  SecretKeyReply,
  SecretPublicKey,
} from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { describeServer, expectProblem, headers } from '../../test-support.ts'
import { CVK, cardIssuingApp, clientKey } from './card-issuing-fixtures.ts'
import { cardNumbersIn, ok } from './card-test-support.ts'
import { REVEALS_PER_MINUTE } from './routes.ts'
import { deriveCvv, isLuhnValid } from './rules.ts'

describeServer('card issuing: revealing a card’s data and one-time codes', () => {
  const { app, call, person, revealed, standAlone, publicKey, reveal, expectNoLeaks } =
    cardIssuingApp()

  it('publishes the RSA public key of the secret exchange (2048 bits or more), never the private one', async () => {
    const { token } = await person()
    const answer = ok<SecretPublicKey>(await call(token, 'GET', '/issuing/config/secret-key'))
    expect(answer.algorithm).toBe('RSA-OAEP-256')
    expect(answer.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
    expect(answer.public_key_pem).not.toMatch(/PRIVATE/)
    const { publicKey: again } = { publicKey: await publicKey(token) }
    expect(again).toBe(answer.public_key_pem)
    const noAuth = await app().inject({
      method: 'GET',
      url: '/api/v1/issuing/config/secret-key',
      headers: headers(),
    })
    expectProblem(noAuth, 401, 'UNAUTHORIZED')
  })

  it('reveals number, expiry and CVV through the RSA-OAEP + AES-256-CBC exchange, and logs it', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const { reply, secrets } = await reveal(token, card.id)
    expect(reply).toEqual({
      success: true,
      encrypted: true,
      data: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/),
      iv: expect.stringMatching(/^[A-Za-z0-9+/]{22}==$/),
    })
    const expiry = { month: card.expiry_month, year: card.expiry_year }
    expect(secrets.data).toEqual({
      pan: expect.stringMatching(/^[0-9]{16}$/),
      expiry: `${String(card.expiry_month).padStart(2, '0')}/${String(card.expiry_year).slice(2)}`,
      cvv: deriveCvv(CVK, secrets.data.pan, expiry),
    })
    // Revealed again with a new key: the same card data, derived again.
    const second = await reveal(token, card.id)
    expect(second.secrets).toEqual(secrets)

    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.total).toBe(2)
    // The session of the access token that asked (its `sid` claim).
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    expect(log.data.map((line) => [line.kind, line.session_id])).toEqual([
      ['SECRETS', sid],
      ['SECRETS', sid],
    ])
  })

  it('refuses a replayed, stale, foreign or malformed encrypted_key', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const other = await standAlone(token, wallet.uuid)
    const pem = await publicKey(token)
    const send = (cardId: string, encrypted_key: string) =>
      call(token, 'POST', `/issuing/cards/${cardId}/sensitive/secretkey`, { encrypted_key })

    const client = clientKey(pem)
    ok<SecretKeyReply>(await send(card.id, client.encrypted_key))
    expectProblem(await send(card.id, client.encrypted_key), 409, 'SECRET_KEY_REPLAYED')
    // Seen before is seen before, whichever card it is sent for.
    expectProblem(await send(other.id, client.encrypted_key), 409, 'SECRET_KEY_REPLAYED')

    expectProblem(
      await send(card.id, clientKey(pem, Date.now() - 61_000).encrypted_key),
      422,
      'SECRET_KEY_STALE',
    )
    expectProblem(
      await send(card.id, clientKey(pem, Date.now() + 120_000).encrypted_key),
      422,
      'SECRET_KEY_STALE',
    )
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    })
    expectProblem(
      await send(card.id, clientKey(String(foreign)).encrypted_key),
      422,
      'SECRET_KEY_INVALID',
    )
    expectProblem(await send(card.id, 'not base64!'), 422, 'SECRET_KEY_INVALID')
    const notJson = publicEncrypt(
      { key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from('hello'),
    ).toString('base64')
    expectProblem(await send(card.id, notJson), 422, 'SECRET_KEY_INVALID')
    // PKCS#1 v1.5 instead of OAEP does not decrypt.
    const pkcs1 = publicEncrypt(
      { key: pem, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(
        JSON.stringify({ key: randomBytes(32).toString('base64'), timestamp: Date.now() }),
      ),
    ).toString('base64')
    expectProblem(await send(card.id, pkcs1), 422, 'SECRET_KEY_INVALID')

    // Keys accepted long ago are forgotten at the next exchange: by then they are stale anyway.
    await app()
      .db.insertInto('card_secret_exchanges')
      .values({
        key_hash: 'old-key',
        tenant_id: DEMO_TENANT_ID,
        card_id: card.id,
        created_at: new Date(Date.now() - 11 * 60_000),
      })
      .execute()
    ok<SecretKeyReply>(await send(card.id, clientKey(pem).encrypted_key))
    const kept = await app()
      .db.selectFrom('card_secret_exchanges')
      .select('key_hash')
      .where('card_id', 'in', [card.id, other.id])
      .execute()
    expect(kept).toHaveLength(2)
    expect(kept.map((row) => row.key_hash)).not.toContain('old-key')

    // Only the accepted exchanges are in the log.
    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.total).toBe(2)
  })

  it('limits reveals and one-time codes to ten a minute per user', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    for (let i = 0; i < REVEALS_PER_MINUTE - 1; i++) {
      ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    }
    await reveal(token, card.id)
    const refused = await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`)
    expect(expectProblem(refused, 429, 'RATE_LIMITED').retry_after).toBeGreaterThan(0)
    expect(refused.headers['retry-after']).toMatch(/^[0-9]+$/)
    const client = clientKey(await publicKey(token))
    expectProblem(
      await call(token, 'POST', `/issuing/cards/${card.id}/sensitive/secretkey`, {
        encrypted_key: client.encrypted_key,
      }),
      429,
      'RATE_LIMITED',
    )
    // Another user is not held back.
    const other = await person()
    const theirs = await standAlone(other.token, other.wallet.uuid)
    ok<CardOtp>(await call(other.token, 'GET', `/vcards/cards/${theirs.id}/sensitive/otp`))
  })

  it('gives a six-digit one-time code valid five minutes, kept hashed, logged', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const before = Date.now()
    const otp = ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    expect(otp.code).toMatch(/^[0-9]{6}$/)
    const ttl = Date.parse(otp.expires_at) - before
    expect(ttl).toBeGreaterThanOrEqual(5 * 60_000 - 1_000)
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 5_000)
    const rows = await app()
      .db.selectFrom('card_otps')
      .select(['code_hash', 'expires_at'])
      .where('card_id', '=', card.id)
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.code_hash).not.toContain(otp.code)
    expect(rows[0]!.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/)

    await reveal(token, card.id)
    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.data.map((line) => line.kind)).toEqual(['SECRETS', 'OTP'])
    expect(
      ok<CardRevealList>(
        await call(token, 'GET', `/issuing/cards/${card.id}/reveals?limit=1&offset=1`),
      ),
    ).toMatchObject({
      total: 2,
      is_last_page: true,
      data: [{ kind: 'OTP' }],
    })
  })

  it('a new code supersedes the earlier ones: one stored code per card, every one still in the log', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    const second = ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    const rows = await app()
      .db.selectFrom('card_otps')
      .select('expires_at')
      .where('card_id', '=', card.id)
      .execute()
    expect(rows.map((row) => row.expires_at.toISOString())).toEqual([second.expires_at])
    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.data.map((line) => line.kind)).toEqual(['OTP', 'OTP'])
  })

  it('keeps the number encrypted at rest: no answer, log line or database text holds a card number', async () => {
    // Runs last in the file: every card issued and revealed above is checked.
    expect(revealed.length).toBeGreaterThanOrEqual(4)
    // The detector finds a number where one would leak (a column, a JSON value, a log message).
    expect(cardNumbersIn(`(x,${revealed[0]},y)`)).toEqual([revealed[0]])
    // …but not a chance run of digits inside a SHA-256 hash (a refresh token's, seen in a dump).
    const hash = 'ec14eaab49e33a26e7fe968b3c309afde07f500b8f4710384659481643ceadd9'
    expect(isLuhnValid('4710384659481643')).toBe(true)
    expect(cardNumbersIn(`(x,${hash},y)`)).toEqual([])
    expect(cardNumbersIn(`{"pan":"${revealed[0]}"} card ${revealed[1]}.`)).toEqual(
      revealed.slice(0, 2),
    )
    await expectNoLeaks()
  })
})
