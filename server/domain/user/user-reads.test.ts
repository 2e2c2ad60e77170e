import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { User } from '../../../contract/user.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { bearer, createTestApp, describeServer, headers, signUp } from '../../test-support.ts'

describeServer('GET /api/v2/user: an authenticated read at the cost of one query', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('the session check reads the user too: one statement for the whole call', async () => {
    const pair = await signUp(app, { kyc: false })
    const get = () =>
      app.inject({
        method: 'GET',
        url: '/api/v2/user',
        headers: headers(bearer(pair.access_token)),
      })
    await get() // the tenant is then known (cached for a minute)
    const { result, statements } = await statementsOf(get)
    expect(result.statusCode, result.body).toBe(200)
    expect(result.json<User>()).toMatchObject({ kyc_status: 'UNVERIFIED' })
    expect(statements, statements.join('\n')).toHaveLength(1)
    // The user as they are now, not as they were when the token was issued.
    await app.db
      .updateTable('users')
      .set({ kyc_status: 'APPROVED' })
      .where('email', '=', result.json<User>().email)
      .execute()
    expect((await get()).json<User>().kyc_status).toBe('APPROVED')
  })
})
