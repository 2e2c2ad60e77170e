import { hash } from '@node-rs/argon2'
import type { FastifyInstance } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signIn,
  uniqueEmail,
} from '../../test-support.ts'

function signUpRequest(app: FastifyInstance, email: string, password: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-up/password/email',
    headers: headers(),
    payload: { email, password },
  })
}

/** An account from before the strength rules: straight in the database, any password. */
async function legacyUser(app: FastifyInstance, email: string, password: string) {
  await app.db
    .insertInto('users')
    .values({
      id: uuidv7(),
      tenant_id: DEMO_TENANT_ID,
      email,
      password_hash: await hash(password),
    })
    .execute()
}

describeServer('password strength at sign-up', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('a breached common password is refused with 422 PASSWORD_TOO_WEAK naming /body/password', async () => {
    const problem = expectProblem(
      await signUpRequest(app, uniqueEmail(), 'Password123'),
      422,
      'PASSWORD_TOO_WEAK',
    )

    expect(problem.errors).toEqual([
      { field: '/body/password', message: expect.stringMatching(/most common passwords/) },
    ])
  })

  it('a password containing the e-mail’s local part is refused with 422 PASSWORD_TOO_WEAK', async () => {
    const email = uniqueEmail('margaret.hamilton')
    const localPart = email.split('@')[0]!

    const problem = expectProblem(
      await signUpRequest(app, email, `${localPart.toUpperCase()}!`),
      422,
      'PASSWORD_TOO_WEAK',
    )

    expect(problem.errors).toEqual([
      { field: '/body/password', message: expect.stringMatching(/e-mail/) },
    ])
  })

  it('a password shorter than 8 characters is refused with 422 naming /body/password', async () => {
    // The schema's length bound catches it before the strength rules run.
    const problem = expectProblem(
      await signUpRequest(app, uniqueEmail(), 'kq7#vL2'),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors).toEqual([{ field: '/body/password', message: expect.any(String) }])
  })

  it('a refused password creates no account: the e-mail can sign up with a good one', async () => {
    const email = uniqueEmail()
    expect((await signUpRequest(app, email, 'qwerty123')).statusCode).toBe(422)

    expect((await signUpRequest(app, email, 'plum-vortex-47-lantern')).statusCode).toBe(201)
  })

  it('signing in never judges the password’s strength: an old weak one still works', async () => {
    const email = uniqueEmail()
    await legacyUser(app, email, 'password')

    expect((await signIn(app, { email, password: 'password' })).statusCode).toBe(200)
    expectProblem(await signIn(app, { email, password: 'password1' }), 400, 'INVALID_CREDENTIALS')
  })
})
