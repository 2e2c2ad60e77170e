import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Passkey } from '../../../contract/security.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signIn,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { assert, createCredential } from './passkey-test-support.ts'
import { ORIGIN, RP, SECURITY_TEST_ENV, securityCalls } from './security-test-support.ts'

/* Issue 21 on the real app: passkey ceremonies with a software authenticator. */

describeServer('passkeys: registering, listing, signing in', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(SECURITY_TEST_ENV)
  })
  afterAll(() => app?.close())

  const { v2, registerPasskey, passkeySignIn, personWithPasskey } = securityCalls(() => app)

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
    expect((await passkeySignIn(passkey, { ...RP, counter: 5 } as typeof RP)).statusCode).toBe(200)
    const stale = await passkeySignIn(passkey, { ...RP, counter: 5 } as typeof RP)
    expectProblem(stale, 400, 'PASSKEY_INVALID')
    const older = await passkeySignIn(passkey, { ...RP, counter: 3 } as typeof RP)
    expectProblem(older, 400, 'PASSKEY_INVALID')
    expect((await passkeySignIn(passkey, { ...RP, counter: 6 } as typeof RP)).statusCode).toBe(200)
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
