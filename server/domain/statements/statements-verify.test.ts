import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type {
  Statement,
  StatementLink,
  StatementVerification,
} from '../../../contract/statements.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { cardCalls, ok, testCardKeys } from '../cards/card-test-support.ts'
import { VERIFY_CALLS, VERIFY_MISSES } from './routes.ts'
import { around, spenderOf } from './statement-fixtures.ts'
import { statementCalls } from './statement-test-support.ts'

describeServer('verifying a statement (public)', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { person } = cardCalls(() => app)
  const { ask, runJobs, made, verify } = statementCalls(() => app)
  const spender = spenderOf(() => app)

  it('by code in any case and grouping, by file and by hash: initials, last four, period, hash — nothing more', async () => {
    const { token, account } = await spender()
    const { statement, file } = await made(token, {
      scope: { fiat_account_id: account.id },
      ...around(),
      format: 'pdf',
    })
    const expected: StatementVerification = {
      code: statement.code,
      holder_initials: expect.stringMatching(/^(\p{Lu}\. \p{Lu}\.|–)$/u) as unknown as string,
      account_last4: account.bank_details!.iban.slice(-4),
      from: statement.from,
      to: statement.to,
      sha256: statement.sha256!,
    }
    const grouped = statement.code.toLowerCase().replace(/(.{4})(?!$)/g, '$1-')
    for (const answer of [
      await verify(`/${statement.code}`),
      await verify(`/${grouped}`),
      await verify('/file', file, 'application/pdf'),
      await verify('/file', file, 'application/octet-stream'),
      await verify('', { sha256: statement.sha256!.toUpperCase() }),
    ]) {
      expect(answer.statusCode, answer.body).toBe(200)
      expect(answer.json()).toEqual(expected)
    }
    // One byte changed is another file.
    const changed = Buffer.from(file)
    changed.writeUInt8(changed.readUInt8(changed.length - 10) ^ 1, changed.length - 10)
    expectProblem(await verify('/file', changed, 'application/pdf'), 404, 'STATEMENT_NOT_FOUND')
    expectProblem(await verify('/ZZZZZZZZZZZZ'), 404, 'STATEMENT_NOT_FOUND')
    expectProblem(await verify('', { sha256: 'nope' }), 422, 'VALIDATION_FAILED')
  })

  it('a download link works without a sign-in for ten minutes, then is gone', async () => {
    const { token, account } = await spender()
    const queued = ok<Statement>(
      await ask(token, { scope: { fiat_account_id: account.id }, ...around(), format: 'csv' }),
      202,
    )
    const link = (id: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v2/statements/${id}/link`,
        headers: headers(bearer(token)),
      })
    expectProblem(await link(queued.id), 409, 'STATEMENT_NOT_READY')
    await runJobs()
    const made = ok<StatementLink>(await link(queued.id), 201)
    const path = new URL(made.url).pathname
    expect(path).toMatch(/^\/api\/statements\/files\/[A-Za-z0-9_-]{43}$/)
    const file = await app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.9' })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8')
    await app.db
      .updateTable('statements')
      .set({ link_expires_at: new Date(Date.now() - 1) })
      .where('id', '=', queued.id)
      .execute()
    expectProblem(
      await app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.9' }),
      404,
      'STATEMENT_NOT_FOUND',
    )
    const stranger = await person()
    expectProblem(
      await app.inject({
        method: 'POST',
        url: `/api/v2/statements/${queued.id}/link`,
        headers: headers(bearer(stranger.token)),
      }),
      404,
      'STATEMENT_NOT_FOUND',
    )
  })

  it('a statement not yet rendered is not there to verify', async () => {
    const { token, account } = await spender()
    const queued = ok<Statement>(
      await ask(token, { scope: { fiat_account_id: account.id }, ...around(), format: 'csv' }),
      202,
    )
    expectProblem(await verify(`/${queued.code}`), 404, 'STATEMENT_NOT_FOUND')
    await runJobs()
  })
})

describeServer('the verify route’s abuse limits', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const from = (address: string, code: string) =>
    app.inject({ method: 'GET', url: `/api/statements/verify/${code}`, remoteAddress: address })

  it(`an address gets ${VERIFY_CALLS.max} checks a minute, then 429 with Retry-After; another address is not held up`, async () => {
    for (let i = 0; i < VERIFY_CALLS.max; i++) {
      expect((await from('198.51.100.1', 'ABCDEFGHJKMN')).statusCode).toBe(404)
    }
    const held = expectProblem(await from('198.51.100.1', 'ABCDEFGHJKMN'), 429, 'RATE_LIMITED')
    expect(Number(held.retry_after)).toBeGreaterThan(0)
    expect((await from('198.51.100.2', 'ABCDEFGHJKMN')).statusCode).toBe(404)
  })

  it(`guessing stops after ${VERIFY_MISSES.max} misses an hour, even spread over minutes`, async () => {
    const address = '198.51.100.3'
    const hits = VERIFY_MISSES.max
    // Move past the per-minute window between batches by clearing it, as a patient guesser would wait.
    for (let i = 0; i < hits; i++) {
      if (i % (VERIFY_CALLS.max - 1) === 0) {
        await app.db
          .deleteFrom('rate_limit_hits')
          .where('key', '=', `statement-verify:${address}`)
          .execute()
      }
      expect((await from(address, `GUESS${String(i).padStart(7, '0')}`)).statusCode).toBe(404)
    }
    await app.db
      .deleteFrom('rate_limit_hits')
      .where('key', '=', `statement-verify:${address}`)
      .execute()
    expectProblem(await from(address, 'GUESS9999999'), 429, 'RATE_LIMITED')
  })

  it('past the misses a genuine code answers 429 too: a guesser learns nothing from a hit', async () => {
    const { person } = cardCalls(() => app)
    const { made } = statementCalls(() => app)
    const { token, wallet } = await person()
    const { statement } = await made(token, {
      scope: { wallet_uuid: wallet.uuid },
      ...around(),
      format: 'json',
    })
    const address = '198.51.100.4'
    // A match is given back: checking one's own statement never counts as guessing.
    for (let i = 0; i < VERIFY_MISSES.max + 1; i++) {
      if (i % (VERIFY_CALLS.max - 1) === 0) {
        await app.db
          .deleteFrom('rate_limit_hits')
          .where('key', '=', `statement-verify:${address}`)
          .execute()
      }
      expect((await from(address, statement.code)).statusCode).toBe(200)
    }
    for (let i = 0; i < VERIFY_MISSES.max; i++) {
      if (i % (VERIFY_CALLS.max - 1) === 0) {
        await app.db
          .deleteFrom('rate_limit_hits')
          .where('key', '=', `statement-verify:${address}`)
          .execute()
      }
      expect((await from(address, `MISS${String(i).padStart(8, '0')}`)).statusCode).toBe(404)
    }
    expectProblem(await from(address, statement.code), 429, 'RATE_LIMITED')
  })
})
