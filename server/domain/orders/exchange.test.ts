import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import type { ExchangeDirectionList, Quote } from '../../../contract/orders.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import { SANDBOX_NETWORK_FEES } from '../../providers/chain/fees.ts'
import { RatesUnavailableError, ratio } from '../../providers/rates/rates.ts'
import { sandboxPriceMicroUsd } from '../../providers/rates/sandbox.ts'
import {
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { exchangeRate, networkFeeMinor } from './pricing.ts'
import { CURRENCY, calc, insertCardProgram } from './quote-test-support.ts'

/** The catalogue (migration 0004): 5 coins, 7 tokens (USDT on 4 chains, USDC on 3), 3 fiat. */
const CRYPTO_COUNT = 12
const STABLECOIN_TOKENS = 7
/** Ordered pairs of the 15 currencies, less those sharing a code (USDT 4×3, USDC 3×2). */
const EXCHANGE_PAIRS = 15 * 14 - 12 - 6

describeServer('exchange directions: GET /api/v1/exchange/', () => {
  let app: FastifyInstance
  /** A tenant of the file's own, so its active card programs are exactly the ones added here. */
  let tenant: string
  let token: string
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
    tenant = await createTenant(app)
    // A new tenant starts with the issuer's default programs: archived here, so the card
    // top-ups listed are exactly those of the programs this file adds.
    await app.db
      .updateTable('card_programs')
      .set({ status: 'ARCHIVED' })
      .where('tenant_id', '=', tenant)
      .execute()
    token = (await signUp(app, { headers: headers({ 'x-tenant-id': tenant }) })).access_token
  })
  afterAll(() => app?.close())
  afterEach(() => {
    vi.restoreAllMocks()
  })

  const list = (query = '', path = '/api/v1/exchange/', auth: string = token) =>
    app.inject({
      method: 'GET',
      url: `${path}${query}`,
      headers: headers({ authorization: auth, 'x-tenant-id': tenant }),
    })

  async function directions(query = '') {
    const response = await list(query)
    expect(response.statusCode, response.body).toBe(200)
    return response.json<ExchangeDirectionList>()
  }

  const count = (page: ExchangeDirectionList, orderType: string) =>
    page.data.filter((d) => d.order_type === orderType).length

  /** The sandbox's price of a code in the minute `asOf` names, in USD, as the provider publishes it. */
  const usd = (code: string, asOf: string) =>
    ratio(sandboxPriceMicroUsd(code, Date.parse(asOf))!, 1_000_000n)

  it('lists every direction on one page, with or without the trailing slash', async () => {
    const page = await directions()
    expect(page).toMatchObject({
      total: page.data.length,
      limit: page.data.length,
      offset: 0,
      is_last_page: true,
    })
    // No active card programs in this tenant yet: no card top-ups.
    expect(count(page, 'DEPOSIT_FIAT_SEPA')).toBe(1)
    expect(count(page, 'DEPOSIT_FIAT_SWIFT')).toBe(3)
    expect(count(page, 'WITHDRAWAL_FIAT_SEPA')).toBe(1)
    expect(count(page, 'WITHDRAWAL_CRYPTO')).toBe(CRYPTO_COUNT)
    expect(count(page, 'EXCHANGE_CRYPTO_INTERNAL')).toBe(EXCHANGE_PAIRS)
    expect(page.total).toBe(5 + CRYPTO_COUNT + EXCHANGE_PAIRS)
    expect(new Set(page.data.map((d) => d.as_of)).size).toBe(1)

    const bare = await list('', '/api/v1/exchange')
    expect(bare.statusCode, bare.body).toBe(200)
    expect(bare.json<ExchangeDirectionList>().total).toBe(page.total)
  })

  it('prices each direction from the sandbox rates as of as_of', async () => {
    const page = await directions(`?from_uuid=${CURRENCY.USDT_TRON}`)
    const asOf = page.data[0]!.as_of
    expect(new Date(asOf).getUTCSeconds()).toBe(0)

    const toBtc = page.data.find((d) => d.to.currency_uuid === CURRENCY.BTC)!
    expect(toBtc).toMatchObject({
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from: { currency_uuid: CURRENCY.USDT_TRON, currency: 'USDT', chain: 'tron' },
      to: { currency: 'BTC', chain: 'bitcoin' },
      rate: exchangeRate(usd('USDT', asOf), usd('BTC', asOf), '0.5'),
      fee_fixed: '0.000000',
      fee_percent: '0.1',
      network_fee: null,
    })
    const usdtPrice = usd('USDT', asOf)
    const limitUnits = (dollars: bigint) =>
      (dollars * 10n ** 6n * 1_000_000n) / toMinor(usdtPrice, 6)
    expect(toMinor(toBtc.min_amount, 6)).toBeGreaterThanOrEqual(limitUnits(5n))
    expect(toMinor(toBtc.max_amount, 6)).toBeLessThanOrEqual(limitUnits(100_000n))

    const withdrawal = page.data.find((d) => d.order_type === 'WITHDRAWAL_CRYPTO')!
    const fee = SANDBOX_NETWORK_FEES.tron
    expect(withdrawal).toMatchObject({
      to: { currency_uuid: CURRENCY.USDT_TRON },
      rate: '1.00',
      network_fee: fromMinor(
        networkFeeMinor(fee.token, { native: usd('TRX', asOf), currency: usdtPrice }, 6),
        6,
      ),
    })
    // Same code on another chain is not an exchange.
    expect(page.data.some((d) => d.to.currency === 'USDT')).toBe(true)
    expect(page.data.filter((d) => d.to.currency === 'USDT').map((d) => d.order_type)).toEqual([
      'WITHDRAWAL_CRYPTO',
    ])
  })

  it('a native coin’s withdrawal pays its fee as is', async () => {
    const page = await directions(`?order_type=WITHDRAWAL_CRYPTO&from_uuid=${CURRENCY.ETH}`)
    expect(page.data).toHaveLength(1)
    expect(page.data[0]!.network_fee).toBe('0.000400000000000000')
  })

  it('filters by from, to and order type together', async () => {
    const fromBtc = await directions(`?from_uuid=${CURRENCY.BTC}`)
    expect(fromBtc.data.every((d) => d.from.currency_uuid === CURRENCY.BTC)).toBe(true)
    // 14 other currencies, all other codes; and the withdrawal.
    expect(fromBtc.total).toBe(14 + 1)

    const intoEur = await directions(`?to_uuid=${CURRENCY.EUR}&order_type=EXCHANGE_CRYPTO_INTERNAL`)
    expect(intoEur.total).toBe(14)
    expect(intoEur.data.every((d) => d.to.currency === 'EUR')).toBe(true)

    const one = await directions(`?from_uuid=${CURRENCY.EUR}&to_uuid=${CURRENCY.USD}`)
    expect(one.data.map((d) => d.order_type)).toEqual(['EXCHANGE_CRYPTO_INTERNAL'])
    expect(one.data[0]).toMatchObject({ min_amount: '1.00', max_amount: '50000.00' })

    const swift = await directions('?order_type=DEPOSIT_FIAT_SWIFT')
    expect(swift.data.map((d) => d.from.currency)).toEqual(['EUR', 'USD', 'GBP'])
    expect(swift.data[0]).toMatchObject({ fee_fixed: '10.00', fee_percent: '0', rate: '1.00' })

    expect(
      (await directions(`?from_uuid=${CURRENCY.EUR}&to_uuid=${CURRENCY.EUR}`)).data.map(
        (d) => d.order_type,
      ),
    ).toEqual(['DEPOSIT_FIAT_SEPA', 'DEPOSIT_FIAT_SWIFT', 'WITHDRAWAL_FIAT_SEPA'])
    // A currency that is not in the catalogue has no directions.
    expect((await directions(`?from_uuid=${randomUUID()}`)).total).toBe(0)
  })

  it('offers card top-ups in the currencies of the tenant’s active programs', async () => {
    await insertCardProgram(app.db, tenant, { subAccountType: 'prepaid', topUpPercent: '1' })
    await insertCardProgram(app.db, tenant, { subAccountType: 'prepaid', topUpPercent: '0.5' })
    await insertCardProgram(app.db, tenant, {
      subAccountType: 'balance',
      currency: CURRENCY.USD,
      topUpPercent: '0',
    })
    await insertCardProgram(app.db, tenant, {
      subAccountType: 'balance',
      currency: CURRENCY.GBP,
      status: 'ARCHIVED',
    })
    const page = await directions()
    const prepaid = page.data.filter((d) => d.order_type === 'TRANSFER_CARD_PREPAID')
    expect(prepaid.map((d) => d.from.currency)).toEqual(['EUR'])
    // The lowest program's percentage.
    expect(prepaid[0]).toMatchObject({ fee_percent: '0.5', rate: '1.00', min_amount: '1.00' })
    const balance = page.data.filter((d) => d.order_type === 'TRANSFER_CARD_SUBACCOUNT')
    expect(balance.map((d) => d.from.currency)).toEqual(['USD'])
    const wholesale = page.data.filter((d) => d.order_type === 'TRANSFER_CARD_WHOLESALE')
    expect(wholesale).toHaveLength(STABLECOIN_TOKENS * 2)
    expect(new Set(wholesale.map((d) => d.from.currency))).toEqual(new Set(['USDT', 'USDC']))
    expect(new Set(wholesale.map((d) => d.to.currency))).toEqual(new Set(['EUR', 'USD']))
    const usdtToEur = wholesale.find((d) => d.from.currency === 'USDT' && d.to.currency === 'EUR')!
    expect(usdtToEur).toMatchObject({
      rate: exchangeRate(usd('USDT', usdtToEur.as_of), usd('EUR', usdtToEur.as_of), '0.3'),
      fee_percent: '0.5',
    })
  })

  it('its limits are the ones a quote keeps to', async () => {
    // The same prices for the list and the quotes: the sandbox moves once a minute.
    const prices = new Map([
      ['USDT', '1.00'],
      ['BTC', '97342.18'],
      ['EUR', '1.0834'],
    ])
    vi.spyOn(app.rates, 'quote').mockImplementation(async (_base, codes) => ({
      rates: new Map(
        codes.flatMap((code) => (prices.has(code) ? [[code, prices.get(code)!]] : [])),
      ),
      asOf: new Date('2026-01-01T12:00:00Z'),
    }))
    const page = await directions(
      `?from_uuid=${CURRENCY.BTC}&to_uuid=${CURRENCY.EUR}&order_type=EXCHANGE_CRYPTO_INTERNAL`,
    )
    const direction = page.data[0]!
    expect(direction).toMatchObject({ min_amount: '0.00005137', max_amount: '1.02730388' })
    expect(direction.as_of).toBe('2026-01-01T12:00:00.000Z')

    const created = await app.inject({
      method: 'POST',
      url: '/api/v2/wallets',
      headers: headers({ authorization: `Bearer ${token}`, 'x-tenant-id': tenant }),
      payload: { type: 'personal' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const wallet = created.json<Wallet>().uuid
    const quote = (amount: string) =>
      calc(
        app,
        token,
        {
          order_type: 'EXCHANGE_CRYPTO_INTERNAL',
          wallet_uuid: wallet,
          from_uuid: CURRENCY.BTC,
          to_uuid: CURRENCY.EUR,
          amount_from: amount,
        },
        { 'x-tenant-id': tenant },
      )
    const atMin = await quote(direction.min_amount)
    expect(atMin.statusCode, atMin.body).toBe(200)
    // The quote's rate is the list's: both are firm for these prices.
    expect(atMin.json<Quote>().rate).toBe(direction.rate)
    // A refused quote names the list's own bound.
    expect(expectProblem(await quote('0.00005136'), 422, 'AMOUNT_TOO_SMALL').limit).toEqual({
      amount: direction.min_amount,
      currency: 'BTC',
    })
    expect((await quote(direction.max_amount)).statusCode).toBe(200)
    expect(expectProblem(await quote('1.02730389'), 422, 'AMOUNT_TOO_LARGE').limit).toEqual({
      amount: direction.max_amount,
      currency: 'BTC',
    })
  })

  it('answers 502 when the rates provider fails', async () => {
    vi.spyOn(app.rates, 'quote').mockRejectedValueOnce(new RatesUnavailableError('down'))
    expectProblem(await list(), 502, 'RATES_UNAVAILABLE')
    expect((await list()).statusCode).toBe(200)
  })

  it('needs the raw token and well-formed filters', async () => {
    expectProblem(await list('', '/api/v1/exchange/', ''), 401, 'UNAUTHORIZED')
    expectProblem(await list('', '/api/v1/exchange/', `Bearer ${token}`), 401, 'UNAUTHORIZED')
    const bad = expectProblem(await list('?from_uuid=BTC'), 422, 'VALIDATION_FAILED')
    expect(bad.errors?.map((e) => e.field)).toEqual(['/querystring/from_uuid'])
    expectProblem(await list('?order_type=SWAP'), 422, 'VALIDATION_FAILED')
  })

  it('the OpenAPI document shows the calc and the list (without its slash) behind the raw token', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    for (const path of ['/api/v1/orders/calc', '/api/v1/exchange']) {
      expect(document.paths[path].get.security, path).toEqual([{ raw: [] }, { apiKey: [] }])
    }
    // A linted document has no trailing-slash paths: docs/product.md §7's slash is an alias (see above).
    expect(document.paths['/api/v1/exchange/']).toBeUndefined()
    expect(document.paths['/api/v1/orders/calc'].get.description).toContain('NOT checked')
  })
})
