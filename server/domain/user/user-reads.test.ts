import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { User } from '../../../contract/user.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { bearer, createTestApp, describeServer, headers, signUp } from '../../test-support.ts'

describeServer('GET /api/v2/user: an authenticated read at the cost of no query', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
    await vi.waitFor(() => expect(app.sessions.trusted).toBe(true))
  })
  afterAll(() => app?.close())

  it('the session check reads the user too, once: then no statement for the whole call', async () => {
    const pair = await signUp(app, { kyc: false })
    const get = () =>
      app.inject({
        method: 'GET',
        url: '/api/v2/user',
        headers: headers(bearer(pair.access_token)),
      })
    // The first call reads the session with the user, in one statement, and keeps it.
    const first = await statementsOf(get)
    expect(first.statements, first.statements.join('\n')).toHaveLength(1)
    const { result, statements } = await statementsOf(get)
    expect(result.statusCode, result.body).toBe(200)
    expect(result.json<User>()).toMatchObject({ kyc_status: 'UNVERIFIED' })
    expect(statements, statements.join('\n')).toEqual([])
    // The user as they are now, not as they were when the token was issued.
    await app.db
      .updateTable('users')
      .set({ kyc_status: 'APPROVED' })
      .where('email', '=', result.json<User>().email)
      .execute()
    expect((await get()).json<User>().kyc_status).toBe('APPROVED')
  })
})
