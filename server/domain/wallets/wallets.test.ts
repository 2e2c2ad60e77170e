import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { User } from '../../../contract/user.ts'
import { WALLET_TYPES, type Wallet, type WalletList } from '../../../contract/wallets.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
} from '../../test-support.ts'
import { credit, ETH, EUR, postAlone, USDT_TRON } from '../ledger/ledger-test-support.ts'
import { transfer } from '../ledger/rules.ts'
import { type WalletAccounts, walletAccounts } from '../ledger/service.ts'
import { TenantService } from '../tenants/service.ts'

describeServer('wallets', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const call = (pair: TokenPair, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(pair.access_token)),
      ...(payload && { payload }),
    })

  async function createWallet(pair: TokenPair, type: string = 'personal') {
    const response = await call(pair, 'POST', '/wallets', { type })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<Wallet>()
  }

  it('a wallet of every type can be created, empty, and a user may have several of one type', async () => {
    const pair = await signUp(app)
    for (const type of [...WALLET_TYPES, 'personal']) {
      const wallet = await createWallet(pair, type)
      expect(wallet).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type,
        created_at: expect.any(String),
        balances: [],
      })
    }
    const list = (await call(pair, 'GET', '/wallets?limit=100')).json<WalletList>()
    // Besides the Personal wallet every account starts with.
    expect(list.total).toBe(WALLET_TYPES.length + 2)
  })

  it('an unknown wallet type, or p2p (a label, not a type), answers 422', async () => {
    const pair = await signUp(app)
    for (const type of ['savings', 'p2p']) {
      expectProblem(await call(pair, 'POST', '/wallets', { type }), 422, 'VALIDATION_FAILED')
    }
    expectProblem(await call(pair, 'POST', '/wallets', {}), 422, 'VALIDATION_FAILED')
  })

  it('a type the tenant does not offer answers 422 WALLET_TYPE_NOT_OFFERED on the type', async () => {
    const tenants = new TenantService(app.db)
    const tenantId = (await tenants.create({ name: 'Personal Only', wallet_types: ['personal'] }))
      .id
    const own = { 'x-tenant-id': tenantId }
    const pair = await signUp(app, { headers: headers(own) })
    const create = (type: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v2/wallets',
        headers: headers({ ...own, ...bearer(pair.access_token) }),
        payload: { type },
      })
    const refused = expectProblem(await create('business'), 422, 'WALLET_TYPE_NOT_OFFERED')
    expect(refused.errors).toEqual([{ field: '/body/type', message: 'One of: personal.' }])
    expect((await create('personal')).statusCode).toBe(201)
  })

  it('the list pages with limit 10 and offset 0 by default, oldest first', async () => {
    const pair = await signUp(app)
    // The first is the Personal wallet the account started with.
    const created = (await call(pair, 'GET', '/wallets')).json<WalletList>().data
    for (let i = 0; i < 11; i++) created.push(await createWallet(pair, WALLET_TYPES[i % 8]))

    const first = (await call(pair, 'GET', '/wallets')).json<WalletList>()
    expect(first).toMatchObject({ total: 12, limit: 10, offset: 0, is_last_page: false })
    expect(first.data.map((w) => w.uuid)).toEqual(created.slice(0, 10).map((w) => w.uuid))

    const second = (await call(pair, 'GET', '/wallets?offset=10')).json<WalletList>()
    expect(second).toMatchObject({ total: 12, limit: 10, offset: 10, is_last_page: true })
    expect(second.data.map((w) => w.uuid)).toEqual(created.slice(10).map((w) => w.uuid))

    expectProblem(await call(pair, 'GET', '/wallets?limit=0'), 422, 'VALIDATION_FAILED')
  })

  it('a user with no wallets (their tenant opens none at sign-up) gets an empty last page', async () => {
    const tenants = new TenantService(app.db)
    const tenantId = (await tenants.create({ name: 'Business Only', wallet_types: ['business'] }))
      .id
    const own = headers({ 'x-tenant-id': tenantId })
    const pair = await signUp(app, { headers: own })
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/wallets',
      headers: { ...own, ...bearer(pair.access_token) },
    })
    expect(response.json<WalletList>()).toEqual({
      data: [],
      total: 0,
      limit: 10,
      offset: 0,
      is_last_page: true,
    })
  })

  it('another user’s wallet answers 404 WALLET_NOT_FOUND and is never listed', async () => {
    const owner = await signUp(app)
    const stranger = await signUp(app)
    const wallet = await createWallet(owner)

    expectProblem(await call(stranger, 'GET', `/wallets/${wallet.uuid}`), 404, 'WALLET_NOT_FOUND')
    expectProblem(
      await call(owner, 'GET', '/wallets/0190f5a4-0000-7000-8000-000000000000'),
      404,
      'WALLET_NOT_FOUND',
    )
    const theirs = (await call(stranger, 'GET', '/wallets')).json<WalletList>().data
    expect(theirs.map((w) => w.uuid)).not.toContain(wallet.uuid)
    expect((await call(owner, 'GET', `/wallets/${wallet.uuid}`)).statusCode).toBe(200)
  })

  it('a malformed wallet uuid answers 422', async () => {
    const pair = await signUp(app)
    const problem = expectProblem(
      await call(pair, 'GET', '/wallets/not-a-uuid'),
      422,
      'VALIDATION_FAILED',
    )
    expect(problem.errors?.[0]?.field).toBe('/params/wallet_uuid')
  })

  it('balances show what the ledger holds: available, and pending plus held as pending', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(pair)
    const other = await createWallet(pair, 'vault')
    const tenantId = DEMO_TENANT_ID
    const accounts = (await walletAccounts(app.db, tenantId, wallet.uuid)) as WalletAccounts
    await credit(app.db, tenantId, accounts.user_wallet, EUR, 125_050n)
    await credit(app.db, tenantId, accounts.pending, USDT_TRON, 2_500_000n)
    await credit(app.db, tenantId, accounts.user_wallet, ETH, 1_500_000_000_000_000_000n)
    // An order accepted: 50.00 EUR moves from available to held.
    await postAlone(app.db, {
      tenantId,
      kind: 'order_hold',
      idempotencyKey: `hold:${wallet.uuid}`,
      postings: transfer(accounts.user_wallet, accounts.held, EUR, 5_000n),
    })

    const response = await call(pair, 'GET', `/wallets/${wallet.uuid}`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<Wallet>().balances).toEqual([
      {
        currency_uuid: ETH,
        currency: 'ETH',
        chain: 'ethereum',
        decimals: 18,
        available: '1.500000000000000000',
        pending: '0.000000000000000000',
      },
      {
        currency_uuid: USDT_TRON,
        currency: 'USDT',
        chain: 'tron',
        decimals: 6,
        available: '0.000000',
        pending: '2.500000',
      },
      {
        currency_uuid: EUR,
        currency: 'EUR',
        chain: null,
        decimals: 2,
        available: '1200.50',
        pending: '50.00',
      },
    ])
    const list = (await call(pair, 'GET', '/wallets')).json<WalletList>()
    expect(list.data.find((w) => w.uuid === wallet.uuid)?.balances).toHaveLength(3)
    expect(list.data.find((w) => w.uuid === other.uuid)?.balances).toEqual([])
  })

  it('the wallet belongs to the signed-in user in the database too', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(pair, 'merchant')
    const user = (await getUser(app, pair.access_token)).json<User>()
    const row = await app.db
      .selectFrom('wallets')
      .select(['user_id', 'tenant_id', 'type'])
      .where('id', '=', wallet.uuid)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ user_id: user.id, tenant_id: DEMO_TENANT_ID, type: 'merchant' })
  })

  it('without a session wallets answer 401', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v2/wallets', headers: headers() })
    expectProblem(response, 401, 'UNAUTHORIZED')
  })
})
