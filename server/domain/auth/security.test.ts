import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Passkey, SessionList, StepUpStatus } from '../../../contract/security.ts'
import {
  bearer,
  createTenant,
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
import { recordSignInDevice } from './devices.ts'
import { assert, createCredential, type SoftwarePasskey } from './passkey-test-support.ts'
import { launchUser, signedInitData, TEST_BOT_TOKEN } from './telegram-test-support.ts'

/*
 * Issue 21 on the real app: passkey ceremonies with a software authenticator,
 * the step-up guard on every sensitive route, sessions and devices.
 */

const ORIGIN = 'http://localhost:8080'
const RP = { origin: ORIGIN, rpId: 'localhost' }
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

describeServer('passkeys, the second look, sessions and devices', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // Two sessions of one person each step up within a minute: no resend wait between codes.
    app = await createTestApp({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN, OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  const v2 = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string | undefined,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers({ ...(token ? bearer(token) : {}), ...extra }),
      ...(payload === undefined ? {} : { payload: payload as object }),
    })

  /** Registers a software passkey for the holder of `token` (who must be stepped up). */
  async function registerPasskey(token: string, name?: string): Promise<SoftwarePasskey> {
    const options = await v2('POST', '/user/passkeys/options', token)
    expect(options.statusCode, options.body).toBe(200)
    const { response, passkey } = createCredential(options.json(), RP)
    const created = await v2('POST', '/user/passkeys', token, { response, name })
    expect(created.statusCode, created.body).toBe(201)
    return passkey
  }

  async function passkeySignIn(passkey: SoftwarePasskey, ceremony = RP, ua = CHROME_MAC) {
    const options = await v2('POST', '/auth/sign-in/passkey/options', undefined, {})
    expect(options.statusCode, options.body).toBe(200)
    const response = assert(passkey, options.json<{ challenge: string }>().challenge, ceremony)
    return v2('POST', '/auth/sign-in/passkey', undefined, { response }, { 'user-agent': ua })
  }

  /** A person with a passkey, signed in with a password (so not stepped up). */
  async function personWithPasskey() {
    const email = uniqueEmail('passkey')
    const pair = await signUp(app, { email, kyc: false })
    await stepUp(app, pair.access_token)
    const passkey = await registerPasskey(pair.access_token)
    return { email, pair, passkey }
  }

  describe('passkeys', () => {
    it('registering needs a fresh proof; the options name the tenant as relying party', async () => {
      const pair = await signUp(app, { kyc: false })
      const refused = await v2('POST', '/user/passkeys/options', pair.access_token)
      expect(expectProblem(refused, 403, 'STEP_UP_REQUIRED').methods).toEqual(['otp'])
      await stepUp(app, pair.access_token)
      const options = await v2('POST', '/user/passkeys/options', pair.access_token)
      expect(options.statusCode).toBe(200)
      const body = options.json<{ rp: { id: string }; authenticatorSelection: object }>()
      expect(body.rp.id).toBe('localhost')
      expect(body.authenticatorSelection).toMatchObject({ residentKey: 'required' })
    })

    it('a registered passkey is listed with its name and removed on request', async () => {
      const pair = await signUp(app, { kyc: false })
      await stepUp(app, pair.access_token)
      await registerPasskey(pair.access_token, 'Work laptop')
      const list = await v2('GET', '/user/passkeys', pair.access_token)
      const [passkey] = list.json<{ data: Passkey[] }>().data
      expect(passkey).toMatchObject({ name: 'Work laptop', device_type: 'singleDevice' })
      expect(passkey?.last_used_at).toBeNull()
      const removed = await v2('DELETE', `/user/passkeys/${passkey?.id}`, pair.access_token)
      expect(removed.statusCode).toBe(204)
      const again = await v2('DELETE', `/user/passkeys/${passkey?.id}`, pair.access_token)
      expectProblem(again, 404, 'PASSKEY_NOT_FOUND')
      expect((await v2('GET', '/user/passkeys', pair.access_token)).json().data).toEqual([])
    })

    it('a registration signed for another origin, or answering another challenge, is refused', async () => {
      const pair = await signUp(app, { kyc: false })
      await stepUp(app, pair.access_token)
      const options = (await v2('POST', '/user/passkeys/options', pair.access_token)).json()
      const evil = createCredential(options, { origin: 'https://evil.example', rpId: 'localhost' })
      const refused = await v2('POST', '/user/passkeys', pair.access_token, {
        response: evil.response,
      })
      expectProblem(refused, 400, 'PASSKEY_INVALID')
      // The challenge was spent on the refused attempt: it does not come back.
      const honest = createCredential(options, RP)
      const replay = await v2('POST', '/user/passkeys', pair.access_token, {
        response: honest.response,
      })
      expectProblem(replay, 400, 'PASSKEY_CHALLENGE_INVALID')
    })

    it('a challenge handed to one session cannot register a passkey in another', async () => {
      const email = uniqueEmail()
      const first = await signUp(app, { email, kyc: false })
      const second = (await signIn(app, { email })).json<TokenPair>()
      await stepUp(app, first.access_token)
      await stepUp(app, second.access_token)
      const options = (await v2('POST', '/user/passkeys/options', first.access_token)).json()
      const { response } = createCredential(options, RP)
      const refused = await v2('POST', '/user/passkeys', second.access_token, { response })
      expectProblem(refused, 400, 'PASSKEY_CHALLENGE_INVALID')
    })

    it('signs in with a discoverable passkey, without an e-mail; last use is recorded', async () => {
      const { pair, passkey } = await personWithPasskey()
      const signedIn = await passkeySignIn(passkey)
      expect(signedIn.statusCode, signedIn.body).toBe(200)
      const tokens = signedIn.json<TokenPair>()
      const me = await v2('GET', '/user', tokens.access_token)
      const owner = await v2('GET', '/user', pair.access_token)
      expect(me.json().id).toBe(owner.json().id)
      const [listed] = (await v2('GET', '/user/passkeys', tokens.access_token)).json<{
        data: Passkey[]
      }>().data
      expect(listed?.last_used_at).not.toBeNull()
    })

    it('with an e-mail, the options list that person’s passkeys; an unknown e-mail lists none', async () => {
      const { email } = await personWithPasskey()
      const known = await v2('POST', '/auth/sign-in/passkey/options', undefined, { email })
      expect(known.json().allowCredentials).toHaveLength(1)
      const unknown = await v2('POST', '/auth/sign-in/passkey/options', undefined, {
        email: uniqueEmail('nobody'),
      })
      expect(unknown.statusCode).toBe(200)
      expect(unknown.json().allowCredentials ?? []).toEqual([])
    })

    it('a replayed assertion is refused', async () => {
      const { passkey } = await personWithPasskey()
      const options = await v2('POST', '/auth/sign-in/passkey/options', undefined, {})
      const response = assert(passkey, options.json().challenge, RP)
      const first = await v2('POST', '/auth/sign-in/passkey', undefined, { response })
      expect(first.statusCode, first.body).toBe(200)
      const replay = await v2('POST', '/auth/sign-in/passkey', undefined, { response })
      expectProblem(replay, 400, 'PASSKEY_CHALLENGE_INVALID')
    })

    it('an assertion made for another origin or relying party is refused', async () => {
      const { passkey } = await personWithPasskey()
      const crossOrigin = await passkeySignIn(passkey, {
        origin: 'https://evil.example',
        rpId: 'localhost',
      })
      expectProblem(crossOrigin, 400, 'PASSKEY_INVALID')
      const otherRp = await passkeySignIn(passkey, { origin: ORIGIN, rpId: 'evil.example' })
      expectProblem(otherRp, 400, 'PASSKEY_INVALID')
    })

    it('the signature counter must move forward: a cloned authenticator is refused', async () => {
      const { passkey } = await personWithPasskey()
      expect((await passkeySignIn(passkey, { ...RP, counter: 5 } as typeof RP)).statusCode).toBe(
        200,
      )
      const stale = await passkeySignIn(passkey, { ...RP, counter: 5 } as typeof RP)
      expectProblem(stale, 400, 'PASSKEY_INVALID')
      const older = await passkeySignIn(passkey, { ...RP, counter: 3 } as typeof RP)
      expectProblem(older, 400, 'PASSKEY_INVALID')
      expect((await passkeySignIn(passkey, { ...RP, counter: 6 } as typeof RP)).statusCode).toBe(
        200,
      )
    })

    it('a removed passkey no longer signs in', async () => {
      const { pair, passkey } = await personWithPasskey()
      const [listed] = (await v2('GET', '/user/passkeys', pair.access_token)).json().data
      await v2('DELETE', `/user/passkeys/${listed.id}`, pair.access_token)
      expectProblem(await passkeySignIn(passkey), 400, 'PASSKEY_INVALID')
    })

    it('a tenant’s own relying party is used and checked', async () => {
      const tenantId = await createTenant(app)
      await app.db
        .updateTable('tenants')
        .set({
          webauthn_rp_id: 'bank.example',
          webauthn_origins: JSON.stringify(['https://app.bank.example']),
        })
        .where('id', '=', tenantId)
        .execute()
      const on = headers({ 'x-tenant-id': tenantId })
      const pair = await signUp(app, { headers: on, kyc: false })
      await stepUp(app, pair.access_token, on)
      const options = await app.inject({
        method: 'POST',
        url: '/api/v2/user/passkeys/options',
        headers: { ...on, ...bearer(pair.access_token) },
      })
      expect(options.json().rp.id).toBe('bank.example')
      // The demo tenant's origin is not this tenant's.
      const wrong = createCredential(options.json(), RP)
      const refused = await app.inject({
        method: 'POST',
        url: '/api/v2/user/passkeys',
        headers: { ...on, ...bearer(pair.access_token) },
        payload: { response: wrong.response },
      })
      expectProblem(refused, 400, 'PASSKEY_INVALID')
      const again = await app.inject({
        method: 'POST',
        url: '/api/v2/user/passkeys/options',
        headers: { ...on, ...bearer(pair.access_token) },
      })
      const right = createCredential(again.json(), {
        origin: 'https://app.bank.example',
        rpId: 'bank.example',
      })
      const created = await app.inject({
        method: 'POST',
        url: '/api/v2/user/passkeys',
        headers: { ...on, ...bearer(pair.access_token) },
        payload: { response: right.response },
      })
      expect(created.statusCode, created.body).toBe(201)
    })
  })

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

  describe('sessions and devices', () => {
    it('lists the person’s sessions with device, app, address and which one is current', async () => {
      const email = uniqueEmail()
      const first = await signUp(app, { email, headers: headers({ 'user-agent': CHROME_MAC }) })
      await signIn(app, { email, headers: headers({ 'user-agent': SAFARI_IPHONE }) })
      const list = await v2('GET', '/user/sessions', first.access_token)
      expect(list.statusCode, list.body).toBe(200)
      const page = list.json<SessionList>()
      expect(page.total).toBe(2)
      expect(page.is_last_page).toBe(true)
      const devices = page.data.map((s) => [s.device, s.current, s.sign_in_method, s.new_device])
      expect(devices).toEqual(
        expect.arrayContaining([
          ['Chrome, macOS', true, 'password', false],
          ['Safari, iPhone', false, 'password', true],
        ]),
      )
      expect(page.data[0]?.ip).toBe('127.0.0.1')
      expect(page.data[0]?.app_env).toBe('web')
    })

    it('signing a session out ends its refresh family and its access tokens at once', async () => {
      const email = uniqueEmail()
      const mine = await signUp(app, { email, kyc: false })
      const other = (await signIn(app, { email })).json<TokenPair>()
      const list = (await v2('GET', '/user/sessions', mine.access_token)).json<SessionList>()
      const target = list.data.find((s) => !s.current)
      await stepUp(app, mine.access_token)
      const ended = await v2('DELETE', `/user/sessions/${target?.id}`, mine.access_token)
      expect(ended.statusCode).toBe(204)
      expectProblem(await refresh(app, other.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
      expectProblem(await v2('GET', '/user', other.access_token), 401, 'UNAUTHORIZED')
      expect((await v2('GET', '/user', mine.access_token)).statusCode).toBe(200)
      const again = await v2('DELETE', `/user/sessions/${target?.id}`, mine.access_token)
      expectProblem(again, 404, 'SESSION_NOT_FOUND')
    })

    it('another person’s session cannot be ended', async () => {
      const mine = await signUp(app, { kyc: false })
      const theirs = await signUp(app, { kyc: false })
      const [session] = (await v2('GET', '/user/sessions', theirs.access_token)).json<SessionList>()
        .data
      await stepUp(app, mine.access_token)
      const refused = await v2('DELETE', `/user/sessions/${session?.id}`, mine.access_token)
      expectProblem(refused, 404, 'SESSION_NOT_FOUND')
      expect((await v2('GET', '/user', theirs.access_token)).statusCode).toBe(200)
    })

    it('signs out every other session, and keeps this one', async () => {
      const email = uniqueEmail()
      const mine = await signUp(app, { email, kyc: false })
      const others = [
        (await signIn(app, { email })).json<TokenPair>(),
        (await signIn(app, { email })).json<TokenPair>(),
      ]
      await stepUp(app, mine.access_token)
      const ended = await v2('POST', '/user/sessions/sign-out-others', mine.access_token)
      expect(ended.json()).toMatchObject({ ended: 2 })
      for (const pair of others) {
        expectProblem(await refresh(app, pair.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
      }
      const list = (await v2('GET', '/user/sessions', mine.access_token)).json<SessionList>()
      expect(list.data.map((s) => s.current)).toEqual([true])
    })

    it('API keys cannot list or end sessions', async () => {
      const pair = await signUp(app)
      await stepUp(app, pair.access_token)
      const { secret } = (
        await app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/create',
          headers: headers({ authorization: pair.access_token }),
          payload: { name: 'reader', role: 'READ_ONLY' },
        })
      ).json<{ secret: string }>()
      const list = await app.inject({
        method: 'GET',
        url: '/api/v2/user/sessions',
        headers: headers({ 'x-api-key': secret }),
      })
      expectProblem(list, 403, 'SESSION_REQUIRED')
    })

    it('recordSignInDevice says new only for a device unseen while another was seen', async () => {
      const pair = await signUp(app, { kyc: false })
      const { id: userId } = (await v2('GET', '/user', pair.access_token)).json<{ id: string }>()
      const tenantId = (await app.tokens.verifyAccess(pair.access_token))?.tenantId as string
      const device = (userAgent: string) => ({
        tenantId,
        userId,
        userAgent,
        appEnv: 'web' as const,
      })
      const now = new Date()
      // The sign-up's device (the test client's, no user agent) was the first.
      const iphone = await recordSignInDevice(app.db, device(SAFARI_IPHONE), now)
      expect(iphone.newDevice).toBe(true)
      const again = await recordSignInDevice(app.db, device(SAFARI_IPHONE), now)
      expect(again).toEqual({ deviceId: iphone.deviceId, newDevice: false })
      const telegram = await recordSignInDevice(
        app.db,
        { ...device(SAFARI_IPHONE), appEnv: 'telegram' },
        now,
      )
      expect(telegram.newDevice).toBe(true)
    })
  })

  async function who(pair: TokenPair) {
    return (await v2('GET', '/user', pair.access_token)).json<{ email: string }>()
  }
})
