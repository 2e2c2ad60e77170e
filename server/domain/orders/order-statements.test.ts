import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import { CUR, fund, type OrderUser, orderUser, place, quote } from './order-fixtures.ts'
import { ORDER_JOB } from './order-job.ts'

/**
 * The order path in statements: what a request costs the database beyond its
 * answer is the first thing that limits orders per second, and lock hold time
 * (the statements between the first balance row lock and the commit) is the
 * second. These counts are the budget; a change that needs more says why here.
 */

/**
 * Statements any protected call runs for the session check: none once the process
 * keeps the session (issue 29, auth/session-cache.ts), as it does after the warm-up.
 */
const AUTH = 0

const isBegin = (sql: string) => /^\s*begin/i.test(sql)
const isCommit = (sql: string) => /^\s*commit/i.test(sql)

describeServer('order statements', () => {
  let app: FastifyInstance
  let user: OrderUser
  const exchange = {
    order_type: 'EXCHANGE_CRYPTO_INTERNAL',
    from_uuid: CUR.USDT_TRON,
    to_uuid: CUR.BTC,
    amount_from: '25',
  }

  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
    await vi.waitFor(() => expect(app.sessions.trusted).toBe(true))
    user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '1000')
    // Warm: the catalogue is read once per server, not per request.
    const warm = await quote(app, user, exchange)
    await place(app, user, 'EXCHANGE_CRYPTO_INTERNAL', { quote_id: warm.quote_id })
  })
  afterAll(() => app?.close())

  it('a firm quote is the auth checks and the wallet: it writes nothing (a signed token)', async () => {
    const { statements } = await statementsOf(() => quote(app, user, exchange))
    expect(statements.filter(isBegin)).toEqual([])
    expect(statements.some((sql) => /insert|update|delete/i.test(sql))).toBe(false)
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(AUTH + 1)
  })

  it('an exchange is placed, settled and COMPLETE in one statement sent alone: no BEGIN, no COMMIT', async () => {
    const firm = await quote(app, user, exchange)
    const { result, statements } = await statementsOf(() =>
      place(app, user, 'EXCHANGE_CRYPTO_INTERNAL', { quote_id: firm.quote_id }),
    )
    expect(result.statusCode, result.body).toBe(201)
    expect(result.json<Order>().status).toBe('COMPLETE')
    // Nothing before but auth: the quote is its token, the wallet's accounts are
    // remembered, and the key is looked up only if its claim fails.
    expect(statements.filter(isBegin), statements.join('\n')).toEqual([])
    expect(statements.filter(isCommit), statements.join('\n')).toEqual([])
    const inside = statements.slice(AUTH)
    // One statement, its own transaction (issue 29's bound was 10): the key's claim, the
    // order with its records and timeline (its unique quote hash places the quote once),
    // order.created and order.completed with their one dispatch job (issue 28: a money
    // command tells someone), and the settlement, its balance rows last — refusing itself,
    // so that it commits whole or not at all (ledger/repository.ts writeEntry). No job for
    // the order: nothing is left to do, where a hold and a settling job took two more
    // transactions. Nothing after it either: the answer was rendered before.
    expect(inside.length, inside.join('\n')).toBe(1)
    const [placement] = inside
    for (const table of ['idempotency_keys', 'orders', 'activities', 'order_events', 'events']) {
      expect(placement, table).toContain(`insert into "${table}"`)
    }
    expect(placement).toContain('insert into journal_entries')
    expect(placement).toContain('insert into account_balances')
    expect(placement).toContain('ledger_entry_refuse(')
    // Both events in one statement, with one dispatch job, and no job for the order.
    const inserts = (table: string) =>
      inside.filter((sql) => sql.toLowerCase().includes(`insert into "${table}"`)).length
    expect(inserts('events')).toBe(1)
    expect(inserts('jobs')).toBe(1)
    const told = await app.db
      .selectFrom('events')
      .select('kind')
      .where(sql<string>`payload->>'order_id'`, '=', result.json<Order>().id)
      .orderBy('id')
      .execute()
    expect(told.map((event) => event.kind)).toEqual(['order.created', 'order.completed'])
    const orderJobs = await app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', ORDER_JOB)
      .where(sql<string>`payload->>'order_id'`, '=', result.json<Order>().id)
      .execute()
    expect(orderJobs).toEqual([])
  })

  it('a replayed placement answers from its key: its claim fails, one read answers', async () => {
    const firm = await quote(app, user, exchange)
    const body = { quote_id: firm.quote_id, request_id: `replay-${firm.created_at}` }
    const first = await place(app, user, 'EXCHANGE_CRYPTO_INTERNAL', body)
    expect(first.statusCode, first.body).toBe(201)
    const { result, statements } = await statementsOf(() =>
      place(app, user, 'EXCHANGE_CRYPTO_INTERNAL', body),
    )
    expect(result.statusCode).toBe(201)
    expect(result.headers['idempotent-replayed']).toBe('true')
    expect(result.json()).toEqual(first.json())
    // The claim with the rows (refused: the statement wrote nothing), the key's answer.
    expect(statements.filter(isBegin), statements.join('\n')).toEqual([])
    expect(statements.filter(isCommit), statements.join('\n')).toEqual([])
    expect(statements.length, statements.join('\n')).toBe(AUTH + 2)
    expect(statements.at(-1)).toMatch(/^select .* from "idempotency_keys"/)
  })
})
