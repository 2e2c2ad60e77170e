import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { StepUpStatus } from '../../../contract/security.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  refresh,
  signIn,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { assert } from './passkey-test-support.ts'
import { RP, SECURITY_TEST_ENV, securityCalls } from './security-test-support.ts'
import { launchUser, signedInitData } from './telegram-test-support.ts'

/* Issue 21 on the real app: the step-up guard on every sensitive route, and what proves presence. */

describeServer('the second look', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(SECURITY_TEST_ENV)
  })
  afterAll(() => app?.close())

  const { v2, passkeySignIn, personWithPasskey, who } = securityCalls(() => app)

  describe('the second look', () => {
    /** Every sensitive call, with a body that passes its schema; ids are unknown (404 after the guard). */
    const sensitive = (walletId: string) => [
      {
        name: 'card reveal',
        method: 'POST' as const,
        url: `/api/v1/issuing/cards/${randomUUID()}/sensitive/secretkey`,
        payload: { encrypted_key: 'AAAA' },
      },
      {
        name: 'add a payout destination',
        method: 'POST' as const,
        url: `/api/v2/counterparties/${walletId}/${randomUUID()}/destinations`,
        payload: { type: 'SEPA', iban: 'DE89370400440532013000' },
      },
      {
        name: 'change a payout destination',
        method: 'PATCH' as const,
        url: `/api/v2/counterparties/${walletId}/${randomUUID()}/destinations/${randomUUID()}`,
        payload: { iban: 'DE89370400440532013000' },
      },
      {
        name: 'place a crypto withdrawal',
        method: 'POST' as const,
        url: '/api/v1/orders/WITHDRAWAL_CRYPTO',
        payload: { quote_id: randomUUID() },
      },
      {
        name: 'place a bank payout',
        method: 'POST' as const,
        url: '/api/v1/orders/WITHDRAWAL_FIAT_SEPA',
        payload: { quote_id: randomUUID() },
      },
      {
        name: 'create an API key',
        method: 'POST' as const,
        url: '/api/v1/developer/access/create',
        payload: { name: 'ci', role: 'READ_ONLY' },
      },
      {
        name: 'rotate an API key',
        method: 'POST' as const,
        url: '/api/v1/developer/access/rotate',
        payload: { id: randomUUID() },
      },
      {
        name: 'change the e-mail',
        method: 'PATCH' as const,
        url: '/api/v2/user/email',
        payload: { email: uniqueEmail('new') },
      },
      {
        name: 'change the phone',
        method: 'PATCH' as const,
        url: '/api/v2/user/phone',
        payload: { phone: '+1 (415) 555-2671' },
      },
    ]

    const call = (
      token: string,
      route: ReturnType<typeof sensitive>[number],
      on: Record<string, string> = headers(),
    ) =>
      app.inject({
        method: route.method,
        url: route.url,
        headers: {
          ...on,
          authorization: route.url.startsWith('/api/v1/') ? token : `Bearer ${token}`,
        },
        payload: route.payload,
      })

    it('each sensitive call answers 403 STEP_UP_REQUIRED without a fresh proof, and passes with one', async () => {
      const pair = await signUp(app)
      const wallets = await v2('GET', '/wallets', pair.access_token)
      const walletId = wallets.json()[0]?.uuid ?? wallets.json().data?.[0]?.uuid
      for (const route of sensitive(walletId)) {
        const refused = await call(pair.access_token, route)
        const problem = expectProblem(refused, 403, 'STEP_UP_REQUIRED')
        expect(problem.methods, route.name).toEqual(['otp'])
        expect(refused.headers['content-type']).toMatch(/application\/problem\+json/)
      }
      await stepUp(app, pair.access_token)
      for (const route of sensitive(walletId)) {
        const passed = await call(pair.access_token, route)
        expect(passed.json().code, `${route.name}: ${passed.body}`).not.toBe('STEP_UP_REQUIRED')
        expect(passed.statusCode, route.name).not.toBe(403)
      }
    })

    it('the money calls that are not payouts need no second look', async () => {
      const pair = await signUp(app)
      for (const type of ['EXCHANGE_CRYPTO_INTERNAL', 'DEPOSIT_FIAT_SEPA']) {
        const placed = await app.inject({
          method: 'POST',
          url: `/api/v1/orders/${type}`,
          headers: headers({ authorization: pair.access_token }),
          payload: { quote_id: randomUUID() },
        })
        expect(placed.json().code, type).not.toBe('STEP_UP_REQUIRED')
      }
    })

    it('a password sign-in is not a proof; a proof of one session does not count for another', async () => {
      const email = uniqueEmail()
      const first = await signUp(app, { email, kyc: false })
      const second = (await signIn(app, { email })).json<TokenPair>()
      await stepUp(app, first.access_token)
      const create = { name: 'k', role: 'READ_ONLY' }
      const v1 = (token: string) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/create',
          headers: headers({ authorization: token }),
          payload: create,
        })
      expect((await v1(first.access_token)).statusCode).toBe(201)
      expectProblem(await v1(second.access_token), 403, 'STEP_UP_REQUIRED')
      // A refreshed pair is the same session: the proof carries over.
      const rotated = (await refresh(app, first.refresh_token)).json<TokenPair>()
      expect((await v1(rotated.access_token)).statusCode).toBe(201)
    })

    it('a passkey sign-in counts as a proof for five minutes, then no longer', async () => {
      const { passkey } = await personWithPasskey()
      const tokens = (await passkeySignIn(passkey)).json<TokenPair>()
      const status = (await v2('GET', '/user/step-up', tokens.access_token)).json<StepUpStatus>()
      expect(status.fresh_until).not.toBeNull()
      expect(status.methods).toEqual(['passkey', 'otp'])
      const create = () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/create',
          headers: headers({ authorization: tokens.access_token }),
          payload: { name: 'k', role: 'READ_ONLY' },
        })
      expect((await create()).statusCode).toBe(201)
      // Six minutes later, as far as the session knows.
      const claims = await app.tokens.verifyAccess(tokens.access_token)
      await app.db
        .updateTable('sessions')
        .set({ stepped_up_at: new Date(Date.now() - 6 * 60_000) })
        .where('id', '=', claims?.sessionId as string)
        .execute()
      const stale = expectProblem(await create(), 403, 'STEP_UP_REQUIRED')
      expect(stale.methods).toEqual(['passkey', 'otp'])
    })

    it('a passkey proves presence for a session signed in with a password', async () => {
      const { pair, passkey } = await personWithPasskey()
      const later = (await signIn(app, { email: (await who(pair)).email })).json<TokenPair>()
      const options = await v2('POST', '/user/step-up/passkey/options', later.access_token)
      expect(options.json().allowCredentials).toHaveLength(1)
      const response = assert(passkey, options.json().challenge, RP)
      const proof = await v2('POST', '/user/step-up/passkey', later.access_token, { response })
      expect(proof.statusCode, proof.body).toBe(200)
      expect(proof.json().method).toBe('passkey')
      // The step-up challenge was this session's: another one cannot answer with it.
      const other = (await signIn(app, { email: (await who(pair)).email })).json<TokenPair>()
      const stolen = await v2('POST', '/user/step-up/passkey/options', later.access_token)
      const answer = assert(passkey, stolen.json().challenge, RP)
      expectProblem(
        await v2('POST', '/user/step-up/passkey', other.access_token, { response: answer }),
        400,
        'PASSKEY_CHALLENGE_INVALID',
      )
    })

    it('a wrong one-time code is no proof', async () => {
      const pair = await signUp(app, { kyc: false })
      await v2('POST', '/user/step-up/otp/send', pair.access_token)
      const wrong = await v2('POST', '/user/step-up/otp', pair.access_token, { token: '000000' })
      expect([400, 419]).toContain(wrong.statusCode)
      const status = await v2('GET', '/user/step-up', pair.access_token)
      expect(status.json().fresh_until).toBeNull()
    })

    it('API keys are not people: the second look does not apply to them', async () => {
      const pair = await signUp(app)
      await stepUp(app, pair.access_token)
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: headers({ authorization: pair.access_token }),
        // A payout key is bound to the addresses it is used from (server/route-policy.ts).
        payload: { name: 'payouts', role: 'PRODUCTION', allowed_ips: ['127.0.0.1'] },
      })
      const { secret } = created.json<{ secret: string }>()
      const placed = await app.inject({
        method: 'POST',
        url: '/api/v1/orders/WITHDRAWAL_CRYPTO',
        headers: headers({ 'x-api-key': secret }),
        payload: { quote_id: randomUUID() },
      })
      expect(placed.json().code).not.toBe('STEP_UP_REQUIRED')
      expect(placed.statusCode).not.toBe(403)
    })
  })

  describe('Telegram biometrics in the Mini App', () => {
    const telegram = headers({ 'x-app-env': 'telegram' })

    it('a Mini App session enrols a biometric token and proves presence with it', async () => {
      const signedUp = await app.inject({
        method: 'POST',
        url: '/api/v2/auth/sign-up/telegram',
        headers: telegram,
        payload: { init_data: signedInitData({ user: launchUser() }), terms_accepted: true },
      })
      expect(signedUp.statusCode, signedUp.body).toBe(201)
      const pair = signedUp.json<TokenPair>()
      const on = { ...telegram, ...bearer(pair.access_token) }
      const status = await app.inject({ method: 'GET', url: '/api/v2/user/step-up', headers: on })
      // No e-mail, no phone, no biometrics yet: nothing to prove with but a fresh Telegram sign-in.
      expect(status.json().methods).toEqual([])
      const enrol = await app.inject({
        method: 'POST',
        url: '/api/v2/user/step-up/telegram-biometrics/enrol',
        headers: on,
      })
      expect(enrol.statusCode, enrol.body).toBe(200)
      const { token } = enrol.json<{ token: string }>()
      const after = await app.inject({ method: 'GET', url: '/api/v2/user/step-up', headers: on })
      expect(after.json().methods).toEqual(['telegram_biometrics'])
      const wrong = await app.inject({
        method: 'POST',
        url: '/api/v2/user/step-up/telegram-biometrics',
        headers: on,
        payload: { token: `${token.slice(1)}x` },
      })
      expectProblem(wrong, 400, 'TELEGRAM_BIOMETRICS_INVALID')
      const proof = await app.inject({
        method: 'POST',
        url: '/api/v2/user/step-up/telegram-biometrics',
        headers: on,
        payload: { token },
      })
      expect(proof.statusCode, proof.body).toBe(200)
      expect(proof.json().method).toBe('telegram_biometrics')
    })

    it('outside the Mini App, Telegram biometrics prove nothing', async () => {
      const pair = await signUp(app, { kyc: false })
      const enrol = await v2('POST', '/user/step-up/telegram-biometrics/enrol', pair.access_token)
      expectProblem(enrol, 400, 'TELEGRAM_BIOMETRICS_INVALID')
    })
  })
})
