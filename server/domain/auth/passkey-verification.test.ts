import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { assert, createCredential, type SoftwarePasskey } from './passkey-test-support.ts'

/*
 * Issue 26, finding 8: a passkey counts only when the authenticator verified
 * the person (UV), not when someone merely touched it (UP): for registering,
 * for signing in and for the second look.
 */

const RP = { origin: 'http://localhost:8080', rpId: 'localhost' }
const PRESENCE_ONLY = { ...RP, userVerified: false }

describeServer('passkeys require user verification', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  const v2 = (url: string, token: string | undefined, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/v2${url}`,
      headers: headers(token ? bearer(token) : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    })

  async function personWithPasskey(): Promise<{ token: string; passkey: SoftwarePasskey }> {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const options = await v2('/user/passkeys/options', pair.access_token)
    const { response, passkey } = createCredential(options.json(), RP)
    const created = await v2('/user/passkeys', pair.access_token, { response })
    expect(created.statusCode, created.body).toBe(201)
    return { token: pair.access_token, passkey }
  }

  it('every ceremony asks the authenticator to verify the person', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const registration = await v2('/user/passkeys/options', pair.access_token)
    expect(registration.json().authenticatorSelection).toMatchObject({
      userVerification: 'required',
    })
    const signIn = await v2('/auth/sign-in/passkey/options', undefined, {})
    expect(signIn.json().userVerification).toBe('required')
    const { token } = await personWithPasskey()
    const second = await v2('/user/step-up/passkey/options', token)
    expect(second.json().userVerification).toBe('required')
  })

  it('a passkey made without user verification is not registered', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const options = await v2('/user/passkeys/options', pair.access_token)
    const { response } = createCredential(options.json(), PRESENCE_ONLY)
    const refused = await v2('/user/passkeys', pair.access_token, { response })
    expectProblem(refused, 400, 'PASSKEY_USER_NOT_VERIFIED')
    const list = await app.inject({
      method: 'GET',
      url: '/api/v2/user/passkeys',
      headers: headers(bearer(pair.access_token)),
    })
    expect(list.json().data).toEqual([])
  })

  it('an assertion with user presence only does not sign in', async () => {
    const { passkey } = await personWithPasskey()
    const options = await v2('/auth/sign-in/passkey/options', undefined, {})
    const response = assert(passkey, options.json().challenge, PRESENCE_ONLY)
    expectProblem(
      await v2('/auth/sign-in/passkey', undefined, { response }),
      400,
      'PASSKEY_USER_NOT_VERIFIED',
    )
    // The same passkey, verified, still signs in.
    const again = await v2('/auth/sign-in/passkey/options', undefined, {})
    const verified = assert(passkey, again.json().challenge, RP)
    const signedIn = await v2('/auth/sign-in/passkey', undefined, { response: verified })
    expect(signedIn.statusCode, signedIn.body).toBe(200)
  })

  it('an assertion with user presence only is no second look', async () => {
    const { token, passkey } = await personWithPasskey()
    const options = await v2('/user/step-up/passkey/options', token)
    const response = assert(passkey, options.json().challenge, PRESENCE_ONLY)
    expectProblem(
      await v2('/user/step-up/passkey', token, { response }),
      400,
      'PASSKEY_USER_NOT_VERIFIED',
    )
    const again = await v2('/user/step-up/passkey/options', token)
    const verified = assert(passkey, again.json().challenge, RP)
    const proof = await v2('/user/step-up/passkey', token, { response: verified })
    expect(proof.statusCode, proof.body).toBe(200)
  })
})
