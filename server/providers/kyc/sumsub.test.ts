import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KycProviderError } from './kyc.ts'
import { readWebhook, SumsubKyc, signRequest, verifyWebhookDigest } from './sumsub.ts'
import { APP_TOKEN, SECRET_KEY, startFakeSumsub, WEBHOOK_SECRET } from './sumsub-test-support.ts'

describe('Sumsub request signatures', () => {
  // Vectors computed outside this code base, with `openssl dgst -sha256 -hmac <secret>`
  // over ts + METHOD + path with query + body.
  it('matches a known vector for a POST with a body', () => {
    expect(
      signRequest({
        secretKey: SECRET_KEY,
        ts: '1700000000',
        method: 'POST',
        pathWithQuery: '/resources/accessTokens/sdk?ttlInSecs=600',
        body: '{"userId":"johndoeID","levelName":"basic-kyc-level"}',
      }),
    ).toBe('75fd207f0c6e3f2aed862d31fd93de05fd1216e5b42a0b47591cbe555e308154')
    expect(
      signRequest({
        secretKey: SECRET_KEY,
        ts: '1607551635',
        method: 'post',
        pathWithQuery: '/resources/applicants?levelName=basic-kyc-level',
        body: '{"externalUserId":"someUniqueUserId"}',
      }),
    ).toBe('f72ef0c9a1cbcd1e9456f423495cf3f54c761fca380b71dbc05c6235d27cbd7d')
  })
})

describe('Sumsub webhook digests', () => {
  const body = '{"type":"applicantReviewed"}'
  const sha256 = '97ae2fccac8bff0b32ee306a8db290b4dc0a439ee507ec432b782b74346c5930'

  it('accepts the digest of the raw body (a known vector), SHA-256 by default', () => {
    for (const algorithm of ['HMAC_SHA256_HEX', undefined]) {
      expect(
        verifyWebhookDigest({ secret: WEBHOOK_SECRET, rawBody: body, digest: sha256, algorithm }),
      ).toBe(true)
    }
    expect(
      verifyWebhookDigest({
        secret: WEBHOOK_SECRET,
        rawBody: Buffer.from(body),
        digest: sha256.toUpperCase(),
        algorithm: 'HMAC_SHA256_HEX',
      }),
    ).toBe(true)
  })

  it('accepts SHA-1 or SHA-512 digests only when the deployment is set to that algorithm', () => {
    for (const [algorithm, hash] of [
      ['HMAC_SHA1_HEX', 'sha1'],
      ['HMAC_SHA512_HEX', 'sha512'],
    ] as const) {
      const digest = createHmac(hash, WEBHOOK_SECRET).update(body).digest('hex')
      expect(
        verifyWebhookDigest({
          secret: WEBHOOK_SECRET,
          rawBody: body,
          digest,
          algorithm,
          expected: algorithm,
        }),
      ).toBe(true)
      // The sender cannot choose it: the default deployment takes SHA-256 only.
      expect(
        verifyWebhookDigest({ secret: WEBHOOK_SECRET, rawBody: body, digest, algorithm }),
      ).toBe(false)
    }
    // A SHA-512 deployment refuses a SHA-256 digest, named or not.
    for (const algorithm of ['HMAC_SHA256_HEX', undefined]) {
      expect(
        verifyWebhookDigest({
          secret: WEBHOOK_SECRET,
          rawBody: body,
          digest: sha256,
          algorithm,
          expected: 'HMAC_SHA512_HEX',
        }),
      ).toBe(false)
    }
  })

  it('refuses another body, another secret, another algorithm, a missing or malformed digest', () => {
    const check = (overrides: Partial<Parameters<typeof verifyWebhookDigest>[0]>) =>
      verifyWebhookDigest({
        secret: WEBHOOK_SECRET,
        rawBody: body,
        digest: sha256,
        algorithm: 'HMAC_SHA256_HEX',
        ...overrides,
      })
    expect(check({ rawBody: `${body} ` })).toBe(false)
    expect(check({ rawBody: '{"type": "applicantReviewed"}' })).toBe(false)
    expect(check({ secret: 'another' })).toBe(false)
    expect(check({ algorithm: 'HMAC_SHA512_HEX' })).toBe(false)
    expect(check({ algorithm: 'MD5' })).toBe(false)
    expect(check({ digest: undefined })).toBe(false)
    expect(check({ digest: 'not hex' })).toBe(false)
    expect(check({ digest: sha256.slice(0, 62) })).toBe(false)
  })
})

describe('Sumsub webhooks in our statuses', () => {
  const reviewed = (reviewResult: Record<string, unknown>) =>
    readWebhook({
      type: 'applicantReviewed',
      externalUserId: 'u-1',
      reviewResult,
      createdAtMs: '2024-05-01 10:00:00.123',
    })

  it.each([
    [{ reviewAnswer: 'GREEN' }, 'APPROVED'],
    [
      { reviewAnswer: 'RED', reviewRejectType: 'RETRY', rejectLabels: ['BAD_PROOF'] },
      'SOFT_REJECT',
    ],
    [{ reviewAnswer: 'RED', reviewRejectType: 'FINAL', rejectLabels: ['FRAUDULENT'] }, 'REJECT'],
    [{ reviewAnswer: 'RED', reviewRejectType: 'FINAL', rejectLabels: ['DUPLICATE'] }, 'DOUBLE'],
    [{ reviewAnswer: 'RED', reviewRejectType: 'EXTERNAL' }, 'DECLINED'],
  ])('applicantReviewed %j → %s', (result, status) => {
    expect(reviewed(result)).toMatchObject({
      type: 'applicantReviewed',
      externalUserId: 'u-1',
      status,
      occurredAt: new Date('2024-05-01T10:00:00.123Z'),
    })
  })

  it.each([
    ['applicantPending', 'PENDING'],
    ['applicantOnHold', 'HOLD'],
    ['applicantReset', 'UNVERIFIED'],
    ['applicantCreated', undefined],
    ['applicantPersonalInfoChanged', undefined],
  ])('%s → %s', (type, status) => {
    expect(readWebhook({ type, externalUserId: 'u-1' }).status).toBe(status)
  })

  it('a refusal carries the moderation comment, else the labels', () => {
    expect(
      reviewed({ reviewAnswer: 'RED', reviewRejectType: 'RETRY', moderationComment: ' Blurred ' })
        .reason,
    ).toBe('Blurred')
    expect(
      reviewed({ reviewAnswer: 'RED', reviewRejectType: 'RETRY', rejectLabels: ['A', 'B'] }).reason,
    ).toBe('A, B')
    expect(reviewed({ reviewAnswer: 'GREEN' }).reason).toBeUndefined()
  })

  it('a body of no known shape is an event of no one that moves nothing', () => {
    expect(readWebhook('nonsense')).toEqual({
      type: 'unknown',
      externalUserId: undefined,
      status: undefined,
      reason: undefined,
      occurredAt: undefined,
    })
  })
})

describe('the Sumsub adapter against a fake Sumsub', () => {
  let fake: Awaited<ReturnType<typeof startFakeSumsub>>
  beforeAll(async () => {
    fake = await startFakeSumsub()
  })
  afterAll(() => fake?.close())

  const adapter = (overrides: Partial<ConstructorParameters<typeof SumsubKyc>[0]> = {}) =>
    new SumsubKyc({
      baseUrl: fake.url,
      appToken: APP_TOKEN,
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      ...overrides,
    })

  it('gets an access token with a signed request; it expires after the TTL', async () => {
    const before = Date.now()
    const token = await adapter().accessToken({
      userId: 'user-1',
      levelName: 'basic-kyc-level',
      ttlSeconds: 600,
    })
    expect(token.token).toBe('_act-sbx-user-1')
    expect(token.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 600_000)
    expect(token.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000)
    const call = fake.seen.at(-1)!
    expect(call).toMatchObject({ path: '/resources/accessTokens/sdk', signatureOk: true })
    expect(JSON.parse(call.body)).toEqual({
      userId: 'user-1',
      levelName: 'basic-kyc-level',
      ttlInSecs: 600,
    })
  })

  it('a wrong secret key is refused by Sumsub: a KycProviderError', async () => {
    const wrong = adapter({ secretKey: 'not-the-secret' })
    await expect(
      wrong.accessToken({ userId: 'user-2', levelName: 'basic-kyc-level', ttlSeconds: 600 }),
    ).rejects.toBeInstanceOf(KycProviderError)
    expect(fake.seen.at(-1)!.signatureOk).toBe(false)
  })

  it('a Sumsub error or an unreachable Sumsub is a KycProviderError', async () => {
    await expect(
      adapter().accessToken({ userId: 'broken', levelName: 'l', ttlSeconds: 600 }),
    ).rejects.toBeInstanceOf(KycProviderError)
    const gone = await startFakeSumsub()
    await gone.close()
    await expect(
      adapter({ baseUrl: gone.url, timeoutMs: 2_000 }).accessToken({
        userId: 'user-3',
        levelName: 'l',
        ttlSeconds: 600,
      }),
    ).rejects.toBeInstanceOf(KycProviderError)
  })

  it('the health probe: up when Sumsub accepts the signature, down when not or unreachable', async () => {
    await expect(adapter().probe()).resolves.toBeUndefined()
    expect(fake.seen.at(-1)).toMatchObject({
      path: '/resources/applicants/-;externalUserId=health-probe/one',
      signatureOk: true,
    })
    await expect(adapter({ secretKey: 'not-the-secret' }).probe()).rejects.toBeInstanceOf(
      KycProviderError,
    )
    const gone = await startFakeSumsub()
    await gone.close()
    await expect(adapter({ baseUrl: gone.url, timeoutMs: 2_000 }).probe()).rejects.toBeInstanceOf(
      KycProviderError,
    )
  })

  it('checks a webhook by its headers', () => {
    const body = Buffer.from('{"type":"applicantPending","externalUserId":"u"}')
    const digest = createHmac('sha512', WEBHOOK_SECRET).update(body).digest('hex')
    const sha512 = adapter({ webhookDigestAlg: 'HMAC_SHA512_HEX' })
    expect(
      sha512.verifyWebhook(body, {
        'x-payload-digest': digest,
        'x-payload-digest-alg': 'HMAC_SHA512_HEX',
      }),
    ).toBe(true)
    expect(sha512.verifyWebhook(body, { 'x-payload-digest': digest })).toBe(true)
    // The default deployment pins SHA-256: a SHA-512 digest is refused even when named.
    expect(
      adapter().verifyWebhook(body, {
        'x-payload-digest': digest,
        'x-payload-digest-alg': 'HMAC_SHA512_HEX',
      }),
    ).toBe(false)
    expect(adapter().verifyWebhook(body, { 'x-payload-digest': digest })).toBe(false)
    expect(adapter().verifyWebhook(body, {})).toBe(false)
  })
})
