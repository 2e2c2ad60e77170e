import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Order, type Quote, QuoteId, type QuoteQuery } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { SandboxNetworkFees } from '../../providers/chain/fees.ts'
import { provision } from '../../test-databases.ts'
import {
  createTestApp,
  createTestAppOn,
  describeServer,
  expectProblem,
} from '../../test-support.ts'
import type { Owner } from '../owner.ts'
import {
  balances,
  CUR,
  fund,
  type OrderUser,
  orderUser,
  place,
  placed,
  quote,
} from './order-fixtures.ts'
import { QuoteService } from './quotes.ts'

/**
 * Firm quotes are signed, expiring tokens (issue 29, quote-token.ts): nothing
 * is written to give one, and placing trusts nothing in it but what its MAC
 * covers, with a key the server still lists.
 */

const exchange = {
  order_type: 'EXCHANGE_CRYPTO_INTERNAL',
  from_uuid: CUR.USDT_TRON,
  to_uuid: CUR.BTC,
  amount_from: '25',
}

/** The token with its payload's JSON changed by `edit`, its key id and MAC kept. */
function rewritten(token: string, edit: (values: unknown[]) => void): string {
  const [id, payload, mac] = token.split('.')
  const values = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as unknown[]
  edit(values)
  return `${id}.${Buffer.from(JSON.stringify(values)).toString('base64url')}.${mac}`
}

async function ownerOf(app: FastifyInstance, user: OrderUser): Promise<Owner> {
  const claims = await app.tokens.verifyAccess(user.token.replace(/^Bearer /, ''))
  return { tenantId: DEMO_TENANT_ID, userId: claims!.userId }
}

describeServer('quotes as signed tokens', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())

  it('a quote writes nothing, and fits its schema', async () => {
    const user = await orderUser(app)
    await quote(app, user, exchange)
    const { result, statements } = await statementsOf(() => quote(app, user, exchange))
    expect(statements.filter((sql) => /^\s*(insert|update|delete)/i.test(sql))).toEqual([])
    // The longest target a quote names (a bank payee's display) stays well inside maxLength.
    expect(result.quote_id.length).toBeLessThan((QuoteId.maxLength ?? 0) / 4)
    expect(result.quote_id).toMatch(new RegExp(QuoteId.pattern!))
  })

  it('an altered, forged or another person’s token is QUOTE_NOT_FOUND and holds nothing', async () => {
    const user = await orderUser(app)
    const other = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await quote(app, user, exchange)
    const [id, payload, mac] = q.quote_id.split('.')
    const flipped = (text: string) =>
      `${text.slice(0, -2)}${text.at(-2) === 'A' ? 'B' : 'A'}${text.at(-1)}`
    const refused = [
      // More to arrive for the same pay, an hour more to place it, the same MAC.
      rewritten(q.quote_id, (values) => {
        values[6] = String(BigInt(values[6] as string) * 2n)
      }),
      rewritten(q.quote_id, (values) => {
        values[12] = (values[12] as number) + 3_600_000
      }),
      `${id}.${payload}.${flipped(mac!)}`,
      // Signed with a key the server never had.
      `${randomBytes(6).toString('base64url')}.${payload}.${mac}`,
      `${id}.${payload}`,
      `${id}.${payload}.${mac}.${mac}`,
      randomUUID(),
    ]
    for (const token of refused) {
      const response = await place(app, user, q.order_type, { quote_id: token })
      expectProblem(response, 422, 'QUOTE_NOT_FOUND')
    }
    expectProblem(
      await place(app, other, q.order_type, { quote_id: q.quote_id }),
      422,
      'QUOTE_NOT_FOUND',
    )
    // The same person under another tenant: the tenant is signed too.
    const owner = await ownerOf(app, user)
    const tokens = app.services.quotes.tokens
    expect(tokens.open(owner, q.quote_id)).toBeDefined()
    expect(tokens.open({ ...owner, tenantId: randomUUID() }, q.quote_id)).toBeUndefined()
    expect(await balances(app.db, user.walletId, CUR.USDT_TRON)).toEqual({
      available: '100.000000',
      held: '0.000000',
    })
    // The real one still places.
    expect((await placed(app, user, q)).status).toBeDefined()
  })

  it('expires at its expires_at to the millisecond: placeable just before, QUOTE_EXPIRED at it', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const [early, late] = [await quote(app, user, exchange), await quote(app, user, exchange)]
    const placeAt = (q: Quote, ms: number) => {
      vi.useFakeTimers({ toFake: ['Date'], now: ms })
      return place(app, user, q.order_type, { quote_id: q.quote_id }).finally(() =>
        vi.useRealTimers(),
      )
    }
    const before = await placeAt(early, Date.parse(early.expires_at) - 1)
    expect(before.statusCode, before.body).toBe(201)
    expectProblem(await placeAt(late, Date.parse(late.expires_at)), 422, 'QUOTE_EXPIRED')
    // Placed in time, its replay is the first answer after it expired too.
    const replay = await placeAt(early, Date.parse(early.expires_at) + 60_000)
    expect(replay.statusCode, replay.body).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(before.json())
  })

  it('two quotes of the same terms in the same millisecond are two quotes, one order each', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const owner = await ownerOf(app, user)
    const at = new Date()
    const service = new QuoteService(app.db, app.rates, new SandboxNetworkFees(), {
      ttlSeconds: 30,
      tokens: app.services.quotes.tokens,
      now: () => at,
    })
    const query = { ...exchange, wallet_uuid: user.walletId } as QuoteQuery
    const [one, two] = [await service.create(owner, query), await service.create(owner, query)]
    expect({ ...one, quote_id: '' }).toEqual({ ...two, quote_id: '' })
    expect(one.quote_id).not.toBe(two.quote_id)
    for (const q of [one, two]) expect((await placed(app, user, q)).status).toBe('COMPLETE')
  })

  it('a quote places one order: the same key replays it, another key is QUOTE_USED', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
    const q = await quote(app, user, exchange)
    const first = await place(app, user, q.order_type, { quote_id: q.quote_id })
    expect(first.statusCode, first.body).toBe(201)
    const again = await place(app, user, q.order_type, { quote_id: q.quote_id })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json<Order>().id).toBe(first.json<Order>().id)
    expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id, request_id: 'another' }),
      409,
      'QUOTE_USED',
    )
    // Two keys at once: one order, whichever wins.
    const twice = await quote(app, user, exchange)
    const race = await Promise.all(
      ['a', 'b'].map((key) =>
        place(app, user, twice.order_type, { quote_id: twice.quote_id, request_id: key }),
      ),
    )
    expect(race.map((response) => response.statusCode).sort()).toEqual([201, 409])
    const orders = await app.db
      .selectFrom('orders')
      .select(['quote_id', 'quote_hash'])
      .where('wallet_id', '=', user.walletId)
      .execute()
    expect(orders).toHaveLength(2)
    expect(orders.map((order) => order.quote_id).sort()).toEqual(
      [q.quote_id, twice.quote_id].sort(),
    )
  })
})

describeServer('quote keys rotated', () => {
  const keys = [randomBytes(32), randomBytes(32)].map((key) => key.toString('base64url'))
  const [previous, current] = keys as [string, string]
  let place_: Awaited<ReturnType<typeof provision>>
  beforeAll(async () => {
    place_ = await provision({ migrated: true, onDisk: true })
  })
  afterAll(() => place_?.dispose())

  /** The server on the same database and DATA_DIR (a restart), with `quoteKeys`. */
  async function serverWith<T>(quoteKeys: string[], run: (app: FastifyInstance) => Promise<T>) {
    const app = await createTestAppOn(place_, {
      RATES_SANDBOX_LATENCY_MS: '0',
      // Three starts on one database outlast the default 30 s.
      QUOTE_TTL_SECONDS: '600',
      QUOTE_KEYS: quoteKeys.join(','),
    })
    try {
      return await run(app)
    } finally {
      await app.close()
    }
  }

  describe('a quote signed before the rotation', () => {
    it('places while its key is still listed after the new one, and not once it is dropped', async () => {
      const { user, kept, dropped } = await serverWith([previous], async (app) => {
        const user = await orderUser(app)
        await fund(app.db, user.walletId, CUR.USDT_TRON, '100')
        return {
          user,
          kept: await quote(app, user, exchange),
          dropped: await quote(app, user, exchange),
        }
      })
      await serverWith([current, previous], async (app) => {
        const order = await placed(app, user, kept)
        expect(order.quote_id).toBe(kept.quote_id)
        // The new key signs from now on.
        const fresh = await quote(app, user, exchange)
        expect(fresh.quote_id.split('.')[0]).not.toBe(kept.quote_id.split('.')[0])
      })
      await serverWith([current], async (app) => {
        expectProblem(
          await place(app, user, dropped.order_type, { quote_id: dropped.quote_id }),
          422,
          'QUOTE_NOT_FOUND',
        )
        expect((await placed(app, user, await quote(app, user, exchange))).status).toBeDefined()
      })
      // Three starts of the server, each opening the database: on a loaded machine, over 30 s.
    }, 180_000)
  })
})
