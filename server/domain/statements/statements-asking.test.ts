import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Statement } from '../../../contract/statements.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { cardCalls, ok, testCardKeys } from '../cards/card-test-support.ts'
import { around, HOUR, spenderOf } from './statement-fixtures.ts'
import { statementCalls } from './statement-test-support.ts'

describeServer('what a statement can be asked for, and by whom', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { person } = cardCalls(() => app)
  const { ask, get, runJobs, made } = statementCalls(() => app)
  const spender = spenderOf(() => app)

  it('a period that is empty, too long, in the future or in an unknown zone is 422 naming the field', async () => {
    const { token, account } = await spender()
    const scope = { fiat_account_id: account.id }
    const refused = async (body: Record<string, unknown>, field: string) => {
      const problem = expectProblem(
        await ask(token, { scope, format: 'pdf', ...body }),
        422,
        'VALIDATION_FAILED',
      )
      expect(problem.errors?.map((error) => error.field)).toContain(field)
    }
    const now = Date.now()
    const at = (ms: number) => new Date(now + ms).toISOString()
    await refused({ from: at(0), to: at(0) }, '/body/from')
    await refused({ from: at(-400 * 24 * HOUR), to: at(0) }, '/body/to')
    await refused({ from: at(0), to: at(60 * 24 * HOUR) }, '/body/to')
    await refused({ ...around(), time_zone: 'Mars/Olympus' }, '/body/time_zone')
    await refused({ ...around(), format: 'docx' }, '/body/format')
    await refused(
      { ...around(), scope: { wallet_uuid: account.wallet_uuid, card_id: account.id } },
      '/body/scope',
    )
  })

  it('another person’s wallet, account, card or statement is 404, never theirs', async () => {
    const owner = await spender()
    const stranger = await person()
    const scopes = [
      [{ wallet_uuid: owner.wallet.uuid }, 'WALLET_NOT_FOUND'],
      [{ fiat_account_id: owner.account.id }, 'FIAT_ACCOUNT_NOT_FOUND'],
      [{ card_id: owner.card.id }, 'CARD_NOT_FOUND'],
    ] as const
    for (const [scope, code] of scopes) {
      expectProblem(await ask(stranger.token, { scope, ...around(), format: 'pdf' }), 404, code)
    }
    const theirs = await made(owner.token, { scope: scopes[0][0], ...around(), format: 'csv' })
    expectProblem(
      await get(stranger.token, `/statements/${theirs.statement.id}`),
      404,
      'STATEMENT_NOT_FOUND',
    )
    expectProblem(
      await get(stranger.token, `/statements/${theirs.statement.id}/file`),
      404,
      'STATEMENT_NOT_FOUND',
    )
  })

  it('the same request_id and body answer the first statement; another body is 409', async () => {
    const { token, account } = await spender()
    const body = {
      scope: { fiat_account_id: account.id },
      ...around(),
      format: 'pdf',
      request_id: 'march-1',
    }
    const first = ok<Statement>(await ask(token, body), 202)
    const again = ok<Statement>(await ask(token, body), 202)
    expect(again.id).toBe(first.id)
    expectProblem(await ask(token, { ...body, format: 'csv' }), 409, 'IDEMPOTENCY_CONFLICT')
    const header = ok<Statement>(
      await ask(token, { ...body, request_id: undefined }, { 'idempotency-key': 'march-1' }),
      202,
    )
    expect(header.id).toBe(first.id)
    // Without a key, each request is a statement of its own.
    const { request_id: _, ...unkeyed } = body
    const one = ok<Statement>(await ask(token, unkeyed), 202)
    expect(one.id).not.toBe(first.id)
    await runJobs()
  })
})
