/** What the passkey, step-up and session tests share: the ceremony's origin and the calls. */
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { bearer, headers, signUp, stepUp, uniqueEmail } from '../../test-support.ts'
import { assert, createCredential, type SoftwarePasskey } from './passkey-test-support.ts'
import { TEST_BOT_TOKEN } from './telegram-test-support.ts'

export const ORIGIN = 'http://localhost:8080'
export const RP = { origin: ORIGIN, rpId: 'localhost' }
export const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

/** Two sessions of one person each step up within a minute: no resend wait between codes. */
export const SECURITY_TEST_ENV = { TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN, OTP_RESEND_INTERVAL: '0' }

/** The v2 calls, passkey ceremonies and people with passkeys, on the file's app. */
export function securityCalls(app: () => FastifyInstance) {
  const v2 = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string | undefined,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) =>
    app().inject({
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
    const pair = await signUp(app(), { email, kyc: false })
    await stepUp(app(), pair.access_token)
    const passkey = await registerPasskey(pair.access_token)
    return { email, pair, passkey }
  }

  async function who(pair: TokenPair) {
    return (await v2('GET', '/user', pair.access_token)).json<{ email: string }>()
  }

  return { v2, registerPasskey, passkeySignIn, personWithPasskey, who }
}
