import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../config.ts'
import { SandboxNetworkFees } from '../../providers/chain/fees.ts'
import { RatesUnavailableError } from '../../providers/rates/rates.ts'
import { createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import {
  fixPrices,
  outOfBounds,
  ownerOf,
  person,
  problemField,
  quoteOk,
  refuses,
  sepaDeposit,
  TRON_ADDRESS,
  TTL_SECONDS,
} from './quote-calc-fixtures.ts'
import { CURRENCY, calc } from './quote-test-support.ts'
import { QuoteService } from './quotes.ts'

/**
 * What bounds a firm quote: the amount limits, the query’s validation, who may ask, the rates
 * provider failing, and the quote’s lifetime.
 */
describeServer('firm quotes: limits, validation, access, rates and expiry', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())
  afterEach(() => {
    vi.restoreAllMocks()
  })

  describe('limits', () => {
    it('fiat between 1.00 and 50 000.00, naming the amount given', async () => {
      const { token, wallet } = await person(app)
      const base = { order_type: 'DEPOSIT_FIAT_SEPA', wallet_uuid: wallet, from_uuid: CURRENCY.EUR }
      // The bound itself, for a client to word: in the currency paid, as a decimal string.
      const eur = (amount: string) => ({ amount, currency: 'EUR' })
      await outOfBounds(app, token, base, [
        [
          { amount_from: '0.99' },
          'AMOUNT_TOO_SMALL',
          'amount_from',
          eur('1.00'),
          'at least 1.00 EUR',
        ],
        [{ amount_to: '0' }, 'AMOUNT_TOO_SMALL', 'amount_to', eur('1.00')],
        [
          { amount_from: '50000.01' },
          'AMOUNT_TOO_LARGE',
          'amount_from',
          eur('50000.00'),
          'at most 50000.00 EUR',
        ],
      ])
      // Other 422s carry no limit.
      expect(
        expectProblem(
          await calc(app, token, { ...base, amount_from: '1.001' }),
          422,
          'VALIDATION_FAILED',
        ),
      ).not.toHaveProperty('limit')
      await quoteOk(app, token, { ...base, amount_from: '50000' })
      await quoteOk(app, token, { ...base, amount_from: '1' })
    })

    it('coins between 5 and 100 000 USD at the day’s price', async () => {
      const { token, wallet } = await person(app)
      const base = {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.BTC,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      }
      const btc = (amount: string) => ({ amount, currency: 'BTC' })
      // Given what must arrive, the bound is still on the amount paid, in the currency paid.
      const exchange = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        to_uuid: CURRENCY.EUR,
        address: undefined,
      }
      await outOfBounds(
        app,
        token,
        base,
        [
          [
            { amount_from: '0.00005136' },
            'AMOUNT_TOO_SMALL',
            'amount_from',
            btc('0.00005137'),
            '0.00005137 BTC',
          ],
          [{ amount_from: '1.02730389' }, 'AMOUNT_TOO_LARGE', 'amount_from', btc('1.02730388')],
          [{ ...exchange, amount_to: '1.00' }, 'AMOUNT_TOO_SMALL', 'amount_to', btc('0.00005137')],
        ],
        () => fixPrices(app),
      )
      fixPrices(app)
      await quoteOk(app, token, { ...base, amount_from: '0.00005137' })
    })
  })

  describe('validation', () => {
    it('exactly one amount, in the decimals of its currency', async () => {
      const { token, wallet } = await person(app)
      const base = { order_type: 'DEPOSIT_FIAT_SEPA', wallet_uuid: wallet, from_uuid: CURRENCY.EUR }
      const neither = expectProblem(await calc(app, token, base), 422, 'VALIDATION_FAILED')
      // Worded as the schema's own 422s are.
      expect(neither.detail).toBe('/querystring/amount_from is required (or give amount_to)')
      expect(neither.errors).toEqual([
        { field: '/querystring/amount_from', message: 'is required (or give amount_to)' },
      ])
      await refuses(app, token, base, [
        [{ amount_from: '10', amount_to: '10' }, 'VALIDATION_FAILED', 'amount_to'],
        [{ amount_from: '10.001' }, 'VALIDATION_FAILED', 'amount_from'],
      ])
      // amount_to is in the target's decimals: 8 for bitcoin.
      const exchange = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        to_uuid: CURRENCY.BTC,
      }
      await refuses(app, token, exchange, [
        [{ amount_to: '0.000000001' }, 'VALIDATION_FAILED', 'amount_to'],
      ])
      await refuses(app, token, base, [[{ amount_from: '-1' }, 'VALIDATION_FAILED', 'amount_from']])
    })

    it('a parameter the order type does not use, or a to_uuid it does not pay in', async () => {
      const { token, wallet } = await person(app)
      const base = sepaDeposit(wallet)
      await refuses(app, token, base, [
        [{ address: TRON_ADDRESS }, 'VALIDATION_FAILED', 'address'],
        [{ fiat_account_id: randomUUID() }, 'VALIDATION_FAILED', 'fiat_account_id'],
        [{ to_uuid: CURRENCY.USD }, 'VALIDATION_FAILED', 'to_uuid'],
      ])
    })

    it('unknown currencies and order types, and malformed uuids', async () => {
      const { token, wallet } = await person(app)
      const base = sepaDeposit(wallet)
      await refuses(app, token, base, [
        [{ from_uuid: randomUUID() }, 'CURRENCY_NOT_FOUND', 'from_uuid'],
        [
          { order_type: 'EXCHANGE_CRYPTO_INTERNAL', to_uuid: randomUUID() },
          'CURRENCY_NOT_FOUND',
          'to_uuid',
        ],
      ])
      expect(
        problemField(
          await calc(app, token, { ...base, order_type: 'DEPOSIT_CASH' }),
          422,
          'VALIDATION_FAILED',
        ),
      ).toContain('/querystring/order_type')
      await refuses(app, token, base, [
        [{ wallet_uuid: 'nope' }, 'VALIDATION_FAILED', 'wallet_uuid'],
      ])
    })
  })

  describe('who may ask', () => {
    it('another user’s wallet answers 404 like a missing one', async () => {
      const { token } = await person(app)
      const other = await person(app)
      const query = {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CURRENCY.EUR,
        amount_from: '10',
      }
      for (const wallet of [other.wallet, randomUUID()]) {
        await refuses(app, token, query, [[{ wallet_uuid: wallet }, 'WALLET_NOT_FOUND']])
      }
    })

    it('v1 takes the raw token only', async () => {
      const { token, wallet } = await person(app)
      const query = sepaDeposit(wallet)
      expectProblem(await calc(app, '', query), 401, 'UNAUTHORIZED')
      expectProblem(await calc(app, `Bearer ${token}`, query), 401, 'UNAUTHORIZED')
    })
  })

  describe('the rates provider', () => {
    it('failing answers 502 RATES_UNAVAILABLE', async () => {
      const { token, wallet } = await person(app)
      vi.spyOn(app.rates, 'quote').mockRejectedValueOnce(
        new RatesUnavailableError('the vendor timed out'),
      )
      const query = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.BTC,
        to_uuid: CURRENCY.EUR,
        amount_from: '0.01',
      }
      expectProblem(await calc(app, token, query), 502, 'RATES_UNAVAILABLE')
      // A price missing from the answer is as good as no answer.
      fixPrices(app, { BTC: '97342.18' })
      expectProblem(await calc(app, token, query), 502, 'RATES_UNAVAILABLE')
      // The next call prices again.
      await quoteOk(app, token, query)
    })
  })

  it('a quote given earlier carries its own expiry, TTL seconds after it was given', async () => {
    const { pair, wallet } = await person(app)
    const owner = await ownerOf(app, pair)
    const then = new Date(Date.now() - 10 * 60_000)
    const service = new QuoteService(app.db, app.rates, new SandboxNetworkFees(), {
      ttlSeconds: TTL_SECONDS,
      tokens: app.services.quotes.tokens,
      now: () => then,
    })
    const quote = await service.create(owner, sepaDeposit(wallet))
    expect(quote.created_at).toBe(then.toISOString())
    expect(quote.expires_at).toBe(new Date(then.getTime() + TTL_SECONDS * 1000).toISOString())
    const opened = app.services.quotes.tokens.open(owner, quote.quote_id)
    expect(opened!.expires_at.toISOString()).toBe(quote.expires_at)
  })

  it('QUOTE_TTL_SECONDS is 30 by default, and from 5 to 600', () => {
    const secrets = { JWT_SECRET: KEY, REFRESH_TOKEN_SECRET: KEY, ADDRESS_SEED_KEY: KEY }
    expect(loadConfig({ DATA_DIR: dataDir(), ...secrets }).quoteTtlSeconds).toBe(30)
    expect(
      loadConfig({ DATA_DIR: dataDir(), ...secrets, QUOTE_TTL_SECONDS: '5' }).quoteTtlSeconds,
    ).toBe(5)
    for (const bad of ['4', '601', '1.5']) {
      expect(() => loadConfig({ QUOTE_TTL_SECONDS: bad, DATA_DIR: dataDir() })).toThrow(
        'QUOTE_TTL_SECONDS must be a whole number from 5 to 600',
      )
    }
  })
})

const KEY = Buffer.alloc(32, 3).toString('base64url')
const dataDir = () => join(tmpdir(), `quotes-config-${process.pid}`)
