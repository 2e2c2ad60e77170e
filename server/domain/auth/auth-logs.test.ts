import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import {
  bearer,
  captureLogs,
  createTestApp,
  describeServer,
  getUser,
  headers,
  refresh,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { signOut } from './auth-test-support.ts'

describeServer('what the logs never hold', () => {
  let app: FastifyInstance
  const logs = captureLogs()
  beforeAll(async () => {
    const echo = async (scope: FastifyInstance) => {
      scope.post('/test/log-body', async (request) => {
        request.log.info({ body: request.body }, 'a route that logs what it was sent')
        return { ok: true }
      })
    }
    app = await createTestApp(
      {},
      {
        logStream: logs.stream,
        extraRoutes: { v2: [echo] },
        extraPolicies: { 'POST /api/v2/test/log-body': { access: 'public' } },
      },
    )
  })
  afterAll(() => app?.close())

  it('passwords, access tokens and refresh tokens never reach the logs', async () => {
    const password = 'Sup3r-Secret-Passphrase-9f8e7d'
    const email = uniqueEmail()
    const signedUp = await signUp(app, { email, password })
    const signedIn = (await signIn(app, { email, password })).json<TokenPair>()
    await signIn(app, { email, password: `${password}-wrong` })
    const rotated = (await refresh(app, signedIn.refresh_token)).json<TokenPair>()
    await getUser(app, rotated.access_token)
    await app.inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers({ authorization: `Bearer ${signedUp.access_token}x` }),
    })
    await app.inject({
      method: 'POST',
      url: '/api/v2/test/log-body',
      headers: headers(bearer(rotated.access_token)),
      payload: {
        password,
        refresh_token: rotated.refresh_token,
        session: { access_token: rotated.access_token },
        credentials: { password },
      },
    })
    await signOut(app, rotated.refresh_token)

    const output = logs.lines.join('')
    // One line per request, with its outcome (infra/logger.ts).
    expect(output).toContain('POST /api/v2/auth/sign-in/password/email 200')
    expect(output).toContain('a route that logs what it was sent')
    expect(output).toContain('[redacted]')
    const secrets = {
      password,
      signedUpAccess: signedUp.access_token,
      signedUpRefresh: signedUp.refresh_token,
      signedInAccess: signedIn.access_token,
      signedInRefresh: signedIn.refresh_token,
      rotatedAccess: rotated.access_token,
      rotatedRefresh: rotated.refresh_token,
    }
    for (const [name, secret] of Object.entries(secrets)) {
      expect(output.includes(secret), `${name} appears in the logs`).toBe(false)
      // A JWT's signature alone is as good as a leak of the token.
      const tail = secret.split('.').at(-1)!
      expect(output.includes(tail), `${name} (its last part) appears in the logs`).toBe(false)
    }
  })
})
