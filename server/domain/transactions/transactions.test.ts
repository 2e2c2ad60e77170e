import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { TransactionList, WalletTransaction } from '../../../contract/wallets.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  walletWithRecords,
} from '../../test-support.ts'
import { NO_LABEL } from '../feed/records.ts'
import { CURRENCY, type TransactionOverrides } from './transaction-fixtures.ts'

describeServer('wallet transactions', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const get = (pair: TokenPair, url: string) =>
    app.inject({ method: 'GET', url: `/api/v2${url}`, headers: headers(bearer(pair.access_token)) })

  /** A new user with one wallet holding these records, and a way to list them. */
  async function walletWith(records: TransactionOverrides[] = []) {
    const { pair, wallet, ids } = await walletWithRecords(app, records)
    const list = async (query = '') => {
      const response = await get(pair, `/wallets/${wallet.uuid}/transactions${query}`)
      expect(response.statusCode, response.body).toBe(200)
      return response.json<TransactionList>()
    }
    return { pair, wallet, ids, list }
  }

  const at = (minute: number) => new Date(Date.UTC(2025, 2, 1, 12, minute))
  const uuids = (list: TransactionList) => list.data.map((t) => t.uuid)

  it('pages with limit 10 and offset 0 by default, newest first, and says which page is last', async () => {
    const { ids, list } = await walletWith(
      Array.from({ length: 12 }, (_, i) => ({ created_at: at(i) })),
    )
    const newestFirst = [...ids].reverse()

    // Not the last page: no count unless asked for.
    const first = await list()
    expect(first).toMatchObject({ limit: 10, offset: 0, is_last_page: false })
    expect(first).not.toHaveProperty('total')
    expect(uuids(first)).toEqual(newestFirst.slice(0, 10))
    expect(await list('?with_total=true')).toMatchObject({ total: 12, is_last_page: false })

    // The last page knows its total for free.
    const second = await list('?offset=10')
    expect(second).toMatchObject({ total: 12, limit: 10, offset: 10, is_last_page: true })
    expect(uuids(second)).toEqual(newestFirst.slice(10))

    expect(await list('?limit=12')).toMatchObject({ is_last_page: true, limit: 12, total: 12 })
    // Exactly a page's worth: still the last page (the row beyond the limit is not there).
    expect(await list('?limit=6&offset=6')).toMatchObject({ is_last_page: true, total: 12 })
    // Past the end the length is unknown without a count.
    const past = await list('?offset=50')
    expect(past.data).toEqual([])
    expect(past).toMatchObject({ is_last_page: true })
    expect(past).not.toHaveProperty('total')
    expect(await list('?offset=50&with_total=true')).toMatchObject({ total: 12 })
    // The filters narrow the count alike.
    expect(await list(`?with_total=true&limit=1&from=${at(6).toISOString()}`)).toMatchObject({
      total: 6,
      is_last_page: false,
    })
  })

  it('a page reads limit + 1 rows and counts nothing unless asked', async () => {
    const { list } = await walletWith(Array.from({ length: 3 }, (_, i) => ({ created_at: at(i) })))
    const page = await statementsOf(() => list('?limit=2'))
    expect(page.statements.some((sql) => /count\(/i.test(sql))).toBe(false)
    expect(page.statements.some((sql) => /limit \$\d+/i.test(sql))).toBe(true)
    const counted = await statementsOf(() => list('?limit=2&with_total=true'))
    expect(counted.statements.filter((sql) => /count\(/i.test(sql))).toHaveLength(1)
  })

  it('an empty history is one empty last page', async () => {
    const { list } = await walletWith()
    expect(await list()).toEqual({ data: [], total: 0, limit: 10, offset: 0, is_last_page: true })
  })

  it('a limit outside 1..100 or a negative offset answers 422', async () => {
    const { pair, wallet } = await walletWith()
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
      expectProblem(
        await get(pair, `/wallets/${wallet.uuid}/transactions?${query}`),
        422,
        'VALIDATION_FAILED',
      )
    }
    expect((await get(pair, `/wallets/${wallet.uuid}/transactions?limit=100`)).statusCode).toBe(200)
  })

  it('a record carries its enumerations, and its amount at its currency’s decimals', async () => {
    const created_at = at(0)
    const { wallet, ids, list } = await walletWith([
      {
        type: 'withdrawal',
        method: 'crypto',
        record_type: 'WITHDRAWAL_CRYPTO_EXTERNAL',
        status: 'processing',
        currency_uuid: CURRENCY.ETH,
        amount_minor: '1500000000000000001',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        tx_hash: '0xabc',
        confirmations: 3,
        created_at,
      },
      { currency_uuid: CURRENCY.EUR, amount_minor: '5', method: 'bank_transfer', created_at },
      { currency_uuid: CURRENCY.BTC, amount_minor: '100000000', created_at },
    ])
    const byId = new Map((await list()).data.map((t) => [t.uuid, t]))
    expect(byId.get(ids[0]!)).toEqual({
      uuid: ids[0]!,
      wallet_uuid: wallet.uuid,
      type: 'withdrawal',
      method: 'crypto',
      record_type: 'WITHDRAWAL_CRYPTO_EXTERNAL',
      status: 'processing',
      currency_uuid: CURRENCY.ETH,
      currency: 'ETH',
      chain: 'ethereum',
      amount: '1.500000000000000001',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      tx_hash: '0xabc',
      confirmations: 3,
      created_at: created_at.toISOString(),
      updated_at: expect.any(String),
      // A record written outside any order, deposit or card belongs to no activity item.
      activity_id: null,
      ...NO_LABEL,
    } satisfies WalletTransaction)
    expect(byId.get(ids[1]!)).toMatchObject({ currency: 'EUR', chain: null, amount: '0.05' })
    expect(byId.get(ids[2]!)).toMatchObject({
      currency: 'BTC',
      chain: 'bitcoin',
      amount: '1.00000000',
    })
  })

  it('records of one instant are ordered by id, newest id first, and pages neither skip nor repeat them', async () => {
    const same = at(30)
    const { ids, list } = await walletWith([
      { created_at: at(10) },
      ...Array.from({ length: 7 }, () => ({ created_at: same })),
      { created_at: at(40) },
    ])
    const expected = [ids[8]!, ...ids.slice(1, 8).sort().reverse(), ids[0]!]
    expect(uuids(await list('?limit=100'))).toEqual(expected)
    const paged = []
    for (let offset = 0; offset < 9; offset += 2) {
      paged.push(...uuids(await list(`?limit=2&offset=${offset}`)))
    }
    expect(paged).toEqual(expected)
  })

  it('filters by type, method, status and record_type', async () => {
    const { ids, list } = await walletWith([
      {
        type: 'deposit',
        method: 'crypto',
        record_type: 'DEPOSIT_CRYPTO_EXTERNAL',
        created_at: at(1),
      },
      {
        type: 'withdrawal',
        method: 'crypto',
        record_type: 'WITHDRAWAL_CRYPTO_EXTERNAL',
        status: 'failed',
        created_at: at(2),
      },
      {
        type: 'deposit',
        method: 'bank_transfer',
        record_type: 'DEPOSIT',
        status: 'pending',
        created_at: at(3),
      },
      {
        type: 'withdrawal',
        method: 'p2p',
        record_type: 'FEE',
        status: 'canceled',
        created_at: at(4),
      },
      { type: 'deposit', method: 'sbp', record_type: 'REFUND', status: 'new', created_at: at(5) },
      {
        type: 'withdrawal',
        method: 'exchange',
        record_type: 'EXCHANGE_CRYPTO_INTERNAL',
        status: 'processing',
        created_at: at(6),
      },
    ])
    const [a, b, c, d, e, f] = ids
    const cases: [string, (string | undefined)[]][] = [
      ['type=deposit', [e, c, a]],
      ['type=withdrawal', [f, d, b]],
      ['method=crypto', [b, a]],
      ['method=bank_transfer', [c]],
      ['method=sbp', [e]],
      ['status=complete', [a]],
      ['status=failed', [b]],
      ['status=new', [e]],
      ['status=processing', [f]],
      ['record_type=FEE', [d]],
      ['record_type=EXCHANGE_CRYPTO_INTERNAL', [f]],
      ['record_type=WHOLESALE_CARD_DEPOSIT', []],
    ]
    for (const [query, expected] of cases) {
      const page = await list(`?${query}`)
      expect(uuids(page), query).toEqual(expected)
      expect(page.total, query).toBe(expected.length)
    }
  })

  it('filters by currency code in any letter case — every chain’s — or by currency uuid', async () => {
    const { ids, list } = await walletWith([
      { currency_uuid: CURRENCY.USDT_TRON, created_at: at(1) },
      { currency_uuid: CURRENCY.USDT_ETHEREUM, created_at: at(2) },
      { currency_uuid: CURRENCY.EUR, amount_minor: '100', created_at: at(3) },
    ])
    const [tron, ethereum, eur] = ids
    expect(uuids(await list('?currency=usdt'))).toEqual([ethereum, tron])
    expect(uuids(await list('?currency=USDT'))).toEqual([ethereum, tron])
    expect(uuids(await list(`?currency=${CURRENCY.USDT_TRON}`))).toEqual([tron])
    expect(uuids(await list(`?currency=${CURRENCY.USDT_TRON.toUpperCase()}`))).toEqual([tron])
    expect(uuids(await list('?currency=Eur'))).toEqual([eur])
    expect(await list('?currency=DOGE')).toMatchObject({ data: [], total: 0, is_last_page: true })
  })

  it('filters by date range: from inclusive, to exclusive', async () => {
    const { ids, list } = await walletWith(
      [0, 1, 2, 3].map((minute) => ({ created_at: at(minute) })),
    )
    const [m0, m1, m2, m3] = ids
    const iso = (minute: number) => encodeURIComponent(at(minute).toISOString())
    expect(uuids(await list(`?from=${iso(1)}`))).toEqual([m3, m2, m1])
    expect(uuids(await list(`?to=${iso(2)}`))).toEqual([m1, m0])
    expect(uuids(await list(`?from=${iso(1)}&to=${iso(3)}`))).toEqual([m2, m1])
    expect((await list(`?from=${iso(2)}&to=${iso(2)}`)).total).toBe(0)
    // Any offset names the same instant.
    expect(uuids(await list(`?from=${encodeURIComponent('2025-03-01T13:02:00+01:00')}`))).toEqual([
      m3,
      m2,
    ])
  })

  it('combines filters with AND', async () => {
    const { ids, list } = await walletWith([
      { type: 'deposit', status: 'complete', currency_uuid: CURRENCY.ETH, created_at: at(1) },
      { type: 'deposit', status: 'pending', currency_uuid: CURRENCY.ETH, created_at: at(2) },
      { type: 'withdrawal', status: 'pending', currency_uuid: CURRENCY.ETH, created_at: at(3) },
      { type: 'deposit', status: 'pending', currency_uuid: CURRENCY.BTC, created_at: at(4) },
      { type: 'deposit', status: 'pending', currency_uuid: CURRENCY.ETH, created_at: at(9) },
    ])
    const to = encodeURIComponent(at(5).toISOString())
    const page = await list(`?type=deposit&status=pending&currency=eth&to=${to}&limit=1`)
    expect(page).toMatchObject({ total: 1, limit: 1, is_last_page: true })
    expect(uuids(page)).toEqual([ids[1]])
  })

  it('an unknown enumeration value, a bad date or a range that runs backwards answers 422', async () => {
    const { pair, wallet } = await walletWith()
    const url = (query: string) => `/wallets/${wallet.uuid}/transactions?${query}`
    for (const [query, field] of [
      ['type=transfer', '/querystring/type'],
      ['method=card', '/querystring/method'],
      ['status=COMPLETE', '/querystring/status'],
      ['record_type=deposit', '/querystring/record_type'],
      ['from=yesterday', '/querystring/from'],
      ['to=2025-13-01T00:00:00Z', '/querystring/to'],
    ] as const) {
      const problem = expectProblem(await get(pair, url(query)), 422, 'VALIDATION_FAILED')
      expect(
        problem.errors?.map((e) => e.field),
        query,
      ).toContain(field)
    }
    const backwards = expectProblem(
      await get(pair, url('from=2025-03-02T00:00:00Z&to=2025-03-01T00:00:00Z')),
      422,
      'VALIDATION_FAILED',
    )
    expect(backwards.errors).toEqual([
      { field: '/querystring/from', message: 'must not be after to' },
    ])
  })

  it('another user’s wallet answers 404 WALLET_NOT_FOUND, as does one that does not exist', async () => {
    const owner = await walletWith([{}])
    const stranger = await walletWith()
    expectProblem(
      await get(stranger.pair, `/wallets/${owner.wallet.uuid}/transactions`),
      404,
      'WALLET_NOT_FOUND',
    )
    expectProblem(
      await get(owner.pair, '/wallets/0190f5a4-0000-7000-8000-000000000000/transactions'),
      404,
      'WALLET_NOT_FOUND',
    )
    expectProblem(await get(owner.pair, '/wallets/nope/transactions'), 422, 'VALIDATION_FAILED')
  })

  it('the v2 list wants a Bearer token', async () => {
    const { pair, wallet } = await walletWith()
    const response = await app.inject({
      method: 'GET',
      url: `/api/v2/wallets/${wallet.uuid}/transactions`,
      headers: headers({ authorization: pair.access_token }),
    })
    expectProblem(response, 401, 'UNAUTHORIZED')
  })

  it('one transaction answers in full; one of another wallet answers 404 TRANSACTION_NOT_FOUND', async () => {
    const owner = await walletWith([{ address: 'TXYZ', tx_hash: 'ab12', confirmations: 19 }])
    const stranger = await walletWith([{}])
    const detail = (who: typeof owner, walletId: string, id: string) =>
      get(who.pair, `/wallets/${walletId}/transactions/${id}`)

    const response = await detail(owner, owner.wallet.uuid, owner.ids[0]!)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<WalletTransaction>()).toEqual((await owner.list()).data[0])
    expect(response.json<WalletTransaction>()).toMatchObject({ address: 'TXYZ', confirmations: 19 })

    // The owner's other wallet, or a stranger's record through the owner's wallet: not here.
    const otherWallet = (await createWallet(app, owner.pair.access_token, 'vault')).uuid
    expectProblem(await detail(owner, otherWallet, owner.ids[0]!), 404, 'TRANSACTION_NOT_FOUND')
    expectProblem(
      await detail(owner, owner.wallet.uuid, stranger.ids[0]!),
      404,
      'TRANSACTION_NOT_FOUND',
    )
    expectProblem(
      await detail(owner, owner.wallet.uuid, '0190f5a4-0000-7000-8000-000000000000'),
      404,
      'TRANSACTION_NOT_FOUND',
    )
    // The stranger cannot reach the owner's record through the owner's wallet either.
    expectProblem(await detail(stranger, owner.wallet.uuid, owner.ids[0]!), 404, 'WALLET_NOT_FOUND')
    const malformed = expectProblem(
      await detail(owner, owner.wallet.uuid, 'not-a-uuid'),
      422,
      'VALIDATION_FAILED',
    )
    expect(malformed.errors?.[0]?.field).toBe('/params/uuid')
  })
})
