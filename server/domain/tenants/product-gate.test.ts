import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { defaultProgramId } from '../issuing/default-programs.ts'
import { CURRENCY } from '../transactions/transaction-fixtures.ts'
import { TenantService } from './service.ts'

describeServer('a product the tenant switched off', () => {
  let app: FastifyInstance
  let tenants: TenantService
  let tenantId: string
  let person: TokenPair
  let wallet: Wallet
  const as = (extra: Record<string, string> = {}) => headers({ 'x-tenant-id': tenantId, ...extra })
  const openAccount = (token = person.access_token) =>
    app.inject({
      method: 'POST',
      url: `/api/v2/fiat-accounts/${wallet.uuid}`,
      headers: as({ authorization: `Bearer ${token}` }),
      payload: { program_id: defaultProgramId(tenantId, 'eur-prepaid') },
    })
  const quote = (orderType: string) =>
    app.inject({
      method: 'GET',
      url: '/api/v1/orders/calc',
      headers: as({ authorization: person.access_token }),
      query: {
        order_type: orderType,
        wallet_uuid: wallet.uuid,
        from_uuid: CURRENCY.EUR,
        amount_from: '10.00',
      },
    })

  beforeAll(async () => {
    app = await createTestApp()
    tenants = new TenantService(app.db)
    tenantId = (await tenants.create({ name: 'No Cards Ltd', products: { cards: false } })).id
    person = await signUp(app, { headers: as() })
    const created = await app.inject({
      method: 'POST',
      url: '/api/v2/wallets',
      headers: as({ authorization: `Bearer ${person.access_token}` }),
      payload: { type: 'personal' },
    })
    expect(created.statusCode, created.body).toBe(201)
    wallet = created.json<Wallet>()
  })
  afterAll(() => app?.close())

  it('answers 403 PRODUCT_DISABLED on its routes, whatever the body', async () => {
    const problem = expectProblem(await openAccount(), 403, 'PRODUCT_DISABLED')
    expect(problem.detail).toContain('cards')

    const invalid = await app.inject({
      method: 'POST',
      url: `/api/v2/fiat-accounts/${wallet.uuid}`,
      headers: as({ authorization: `Bearer ${person.access_token}` }),
      payload: { program_id: 'not a uuid' },
    })
    expectProblem(invalid, 403, 'PRODUCT_DISABLED')
    const list = await app.inject({
      method: 'GET',
      url: `/api/v1/fiat_accounts/list/${wallet.uuid}`,
      headers: as({ authorization: person.access_token }),
    })
    expectProblem(list, 403, 'PRODUCT_DISABLED')
  })

  it('refuses only the order types of that product', async () => {
    expectProblem(await quote('TRANSFER_CARD_PREPAID'), 403, 'PRODUCT_DISABLED')
    const exchange = await quote('EXCHANGE_CRYPTO_INTERNAL')
    expect(exchange.statusCode).not.toBe(403)
    const deposit = await quote('DEPOSIT_FIAT_SEPA')
    expect(deposit.statusCode, deposit.body).toBe(200)
    // An order type that does not exist is the schema's to refuse.
    expect((await quote('TRANSFER_TO_MARS')).statusCode).toBe(422)
  })

  it('covers every card route, the card transactions and the card-secret key; programs stay open', async () => {
    const get = (url: string) =>
      app.inject({ method: 'GET', url, headers: as({ authorization: person.access_token }) })
    for (const url of [
      `/api/v1/issuing/cards?wallet_uuid=${wallet.uuid}`,
      '/api/v1/issuing/transactions/',
      '/api/v1/issuing/config/secret-key',
      `/api/v1/vcards/cards/${wallet.uuid}/sensitive/otp`,
    ]) {
      expectProblem(await get(url), 403, 'PRODUCT_DISABLED')
    }
    expect((await get('/api/v1/issuing/config/programs')).statusCode).toBe(200)
  })

  it('crypto off refuses deposit addresses', async () => {
    await tenants.update(tenantId, { products: { crypto: false } })
    try {
      const response = await app.inject({
        method: 'GET',
        url: `/api/v2/wallets/${wallet.uuid}/addresses/ethereum`,
        headers: as({ authorization: `Bearer ${person.access_token}` }),
      })
      expectProblem(response, 403, 'PRODUCT_DISABLED')
    } finally {
      await tenants.update(tenantId, { products: { crypto: true } })
    }
  })

  it('tells a stranger nothing: no token is still 401', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/v2/fiat-accounts/${wallet.uuid}`,
      headers: as(),
      payload: {},
    })
    expectProblem(response, 401, 'UNAUTHORIZED')
  })

  it('is per tenant: the demo tenant still offers it', async () => {
    const demoPerson = await signUp(app)
    const demoWallet = await app.inject({
      method: 'POST',
      url: '/api/v2/wallets',
      headers: headers({ authorization: `Bearer ${demoPerson.access_token}` }),
      payload: { type: 'personal' },
    })
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/fiat_accounts/list/${demoWallet.json<Wallet>().uuid}`,
      headers: headers({ authorization: demoPerson.access_token }),
    })
    expect(response.statusCode, response.body).toBe(200)
  })

  it('switched back on, it works at once', async () => {
    await tenants.update(tenantId, { products: { cards: true } })

    const response = await openAccount()
    expect(response.statusCode, response.body).toBe(201)

    await tenants.update(tenantId, { products: { cards: false } })
    expectProblem(await openAccount(), 403, 'PRODUCT_DISABLED')
  })
})
