import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { ChainId } from '../../../contract/catalog.ts'
import type { Counterparty, Destination } from '../../../contract/counterparties.ts'
import { toMinor } from '../../../contract/money.ts'
import type { Quote } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletAddress } from '../../../contract/wallets.ts'
import { loadConfig } from '../../config.ts'
import { SandboxNetworkFees } from '../../providers/chain/fees.ts'
import { RatesUnavailableError, ratio } from '../../providers/rates/rates.ts'
import { sandboxPriceMicroUsd } from '../../providers/rates/sandbox.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import type { Owner } from '../owner.ts'
import { exchangeRate } from './pricing.ts'
import { CURRENCY, calc, insertDestination, insertFiatAccount } from './quote-test-support.ts'
import { toQuote } from './quote-view.ts'
import { QuoteService } from './quotes.ts'

const TTL_SECONDS = 30

/** Outside addresses (valid, nobody's on the platform). */
const ETH_ADDRESS = '0x9858effd232b4033e47d90003d41ec34ecaeda94'
const ETH_ADDRESS_EIP55 = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'
const TRON_ADDRESS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'
/** BIP 173's P2WPKH example, in the lower case it is stored in. */
const BECH32_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'
const SEPA_IBAN = 'DE89370400440532013000'

/** Fixed prices for a test that checks exact numbers: USD per unit. */
const FIXED_PRICES: Record<string, string> = {
  BTC: '97342.18',
  ETH: '3412.56',
  TRX: '0.2453',
  USDT: '1.00',
  USDC: '0.9999',
  EUR: '1.0834',
  USD: '1.00',
  GBP: '1.2719',
}

/** The quote's own promises, checked with arithmetic of the test's own. */
function expectConsistent(quote: Quote) {
  const from = toMinor(quote.from.amount, quote.from.decimals)
  const [whole, fraction = ''] = quote.rate.split('.')
  const rateNum = BigInt(whole! + fraction)
  const rateDen = 10n ** BigInt(fraction.length)
  const expectedTo =
    (from * rateNum * 10n ** BigInt(quote.to.decimals)) /
    (rateDen * 10n ** BigInt(quote.from.decimals))
  expect(toMinor(quote.to.amount, quote.to.decimals)).toBe(expectedTo)
  for (const fee of quote.fees) {
    expect(fee.currency_uuid).toBe(quote.from.currency_uuid)
    expect(toMinor(fee.amount, quote.from.decimals)).toBeGreaterThan(0n)
  }
  const fees = quote.fees.reduce((sum, fee) => sum + toMinor(fee.amount, quote.from.decimals), 0n)
  expect(toMinor(quote.total, quote.from.decimals)).toBe(from + fees)
  expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at)).toBe(TTL_SECONDS * 1000)
}

type Query = Parameters<typeof calc>[2]
/** The plainest quote request: a 10 EUR SEPA deposit into `wallet`. */
const sepaDeposit = (wallet: string) => ({
  order_type: 'DEPOSIT_FIAT_SEPA' as const,
  wallet_uuid: wallet,
  from_uuid: CURRENCY.EUR,
  amount_from: '10',
})

/** A refused quote request: what it changes in the base query, its code, the field it names. */
type Refusal = [changes: Partial<Query>, code: string, field?: string]
/** An amount out of bounds: what it changes, its code, the field, the bound, words of the message. */
type Bound = [
  changes: Partial<Query>,
  code: string,
  field: string,
  limit: { amount: string; currency: string },
  says?: string,
]

describeServer('firm quotes: GET /api/v1/orders/calc', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())
  afterEach(() => {
    vi.restoreAllMocks()
  })

  /** A new user with a personal wallet. */
  async function person() {
    const pair = await signUp(app, { stepUp: true })
    const wallet = await createWallet(app, pair.access_token)
    return { pair, token: pair.access_token, wallet: wallet.uuid }
  }

  async function newAddress(pair: TokenPair, wallet: string, chain: ChainId) {
    const response = await app.inject({
      method: 'POST',
      url: `/api/v2/wallets/${wallet}/addresses/${chain}`,
      headers: headers(bearer(pair.access_token)),
      payload: {},
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<WalletAddress>().address
  }

  async function quoteOk(token: string, query: Parameters<typeof calc>[2]) {
    const response = await calc(app, token, query)
    expect(response.statusCode, response.body).toBe(200)
    const quote = response.json<Quote>()
    expectConsistent(quote)
    return quote
  }

  /** The provider answers these prices (USD per unit) to the next call. */
  function fixPrices(prices: Record<string, string> = FIXED_PRICES) {
    return vi.spyOn(app.rates, 'quote').mockImplementationOnce(async (base, codes) => {
      expect(base).toBe('USD')
      return {
        rates: new Map(codes.flatMap((code) => (prices[code] ? [[code, prices[code]]] : []))),
        asOf: new Date('2026-01-01T12:00:00Z'),
      }
    })
  }

  const problemField = (response: Awaited<ReturnType<typeof calc>>, status: number, code: string) =>
    expectProblem(response, status, code).errors?.map((error) => error.field)

  /**
   * Each row's query, `base` with the row's changes, is refused with the row's code:
   * 422 naming the one query field at fault, or 404 (missing, or not the caller's)
   * when the row names no field.
   */
  async function refuses(token: string, base: Partial<Query>, rows: Refusal[]) {
    for (const [changes, code, field] of rows) {
      const response = await calc(app, token, { ...base, ...changes } as Query)
      if (field === undefined) expectProblem(response, 404, code)
      else expect(problemField(response, 422, code), code).toEqual([`/querystring/${field}`])
    }
  }

  /**
   * Each row's amount is out of bounds: 422 with the row's code, naming its field, with
   * the bound in the currency paid (`limit`) and, when given, words of the message.
   * `before` runs before each call (fixPrices, for bounds that move with the price).
   */
  async function outOfBounds(
    token: string,
    base: Partial<Query>,
    rows: Bound[],
    before = () => {},
  ) {
    for (const [changes, code, field, limit, says] of rows) {
      before()
      const response = await calc(app, token, { ...base, ...changes } as Query)
      const problem = expectProblem(response, 422, code)
      const message = says === undefined ? expect.any(String) : expect.stringContaining(says)
      expect(problem.errors, code).toEqual([{ field: `/querystring/${field}`, message }])
      expect(problem.limit, code).toEqual(limit)
    }
  }

  describe('deposits', () => {
    it('a SEPA deposit in euro is free, needs no rates, and its token carries it as quoted', async () => {
      const { token, pair, wallet } = await person()
      const rates = vi.spyOn(app.rates, 'quote')
      const quote = await quoteOk(token, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '100',
      })
      expect(rates).not.toHaveBeenCalled()
      expect(quote).toMatchObject({
        order_type: 'DEPOSIT_FIAT_SEPA',
        wallet_uuid: wallet,
        from: {
          currency_uuid: CURRENCY.EUR,
          currency: 'EUR',
          chain: null,
          decimals: 2,
          amount: '100.00',
        },
        to: { currency_uuid: CURRENCY.EUR, amount: '100.00' },
        rate: '1.00',
        fees: [],
        total: '100.00',
        target: {
          kind: 'bank_deposit',
          wallet_uuid: wallet,
          counterparty_account_id: null,
          counterparty_destination_id: null,
          destination_type: null,
          fiat_account_id: null,
          chain: null,
          address: null,
          display: 'SEPA bank transfer into this wallet',
        },
      })

      // What the order will be placed from: the same quote, opened from its token.
      const row = app.services.quotes.tokens.open(await ownerOf(pair), quote.quote_id)
      expect(row).toBeDefined()
      const eur = { uuid: CURRENCY.EUR, code: 'EUR', chain: null, decimals: 2 }
      expect(toQuote(row!, new Map([[CURRENCY.EUR, eur]]))).toEqual(quote)
      // Another user opens nothing with that token.
      const other = await person()
      expect(app.services.quotes.tokens.open(await ownerOf(other.pair), quote.quote_id)).toBe(
        undefined,
      )
    })

    it('a SWIFT deposit takes EUR, USD or GBP and a fixed fee on top', async () => {
      const { token, wallet } = await person()
      const quote = await quoteOk(token, {
        order_type: 'DEPOSIT_FIAT_SWIFT',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USD,
        to_uuid: CURRENCY.USD,
        amount_to: '250.5',
      })
      expect(quote.from.amount).toBe('250.50')
      expect(quote.fees).toEqual([
        {
          kind: 'FIXED',
          currency_uuid: CURRENCY.USD,
          currency: 'USD',
          amount: '10.00',
          percent: null,
        },
      ])
      expect(quote.total).toBe('260.50')
      expect(quote.target.display).toBe('SWIFT bank transfer into this wallet')
      await quoteOk(token, {
        order_type: 'DEPOSIT_FIAT_SWIFT',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.GBP,
        amount_from: '1',
      })
    })

    it('a deposit in a currency its rail does not carry is refused, naming from_uuid', async () => {
      const { token, wallet } = await person()
      await refuses(token, { wallet_uuid: wallet, amount_from: '10' }, [
        [
          { order_type: 'DEPOSIT_FIAT_SEPA', from_uuid: CURRENCY.USD },
          'CURRENCY_NOT_ALLOWED',
          'from_uuid',
        ],
        [
          { order_type: 'DEPOSIT_FIAT_SWIFT', from_uuid: CURRENCY.BTC },
          'CURRENCY_NOT_ALLOWED',
          'from_uuid',
        ],
        [
          { order_type: 'WITHDRAWAL_FIAT_SEPA', from_uuid: CURRENCY.GBP },
          'CURRENCY_NOT_ALLOWED',
          'from_uuid',
        ],
      ])
    })
  })

  describe('SEPA withdrawals', () => {
    it('pay a SEPA destination of the wallet’s counterparty, with the fixed fee', async () => {
      const { token, wallet } = await person()
      const { counterpartyId, destinationId } = await insertDestination(
        app.db,
        DEMO_TENANT_ID,
        wallet,
        { type: 'SEPA', iban: SEPA_IBAN },
      )
      const quote = await quoteOk(token, {
        order_type: 'WITHDRAWAL_FIAT_SEPA',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '120.00',
        destination_id: destinationId,
      })
      expect(quote).toMatchObject({
        to: { amount: '120.00' },
        fees: [{ kind: 'FIXED', amount: '1.00' }],
        total: '121.00',
        target: {
          kind: 'counterparty',
          wallet_uuid: null,
          counterparty_account_id: counterpartyId,
          counterparty_destination_id: destinationId,
          destination_type: 'SEPA',
          display: 'Anna Schmidt · DE89 … 3000',
        },
      })
    })

    it('refuse a missing, foreign, deleted or non-SEPA destination', async () => {
      const { token, wallet } = await person()
      const base = {
        order_type: 'WITHDRAWAL_FIAT_SEPA',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '10',
      }
      // A destination of another wallet's counterparty (even the same user's) is not this wallet's.
      const other = await person()
      const foreign = await insertDestination(app.db, DEMO_TENANT_ID, other.wallet, {
        type: 'SEPA',
        iban: SEPA_IBAN,
      })
      const deleted = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'SEPA',
        iban: SEPA_IBAN,
      })
      await app.db
        .updateTable('counterparty_destinations')
        .set({ deleted_at: new Date() })
        .where('id', '=', deleted.destinationId)
        .execute()
      const crypto = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: TRON_ADDRESS,
      })
      await refuses(token, base, [
        [{}, 'VALIDATION_FAILED', 'destination_id'],
        [{ destination_id: foreign.destinationId }, 'DESTINATION_NOT_FOUND'],
        [{ destination_id: deleted.destinationId }, 'DESTINATION_NOT_FOUND'],
        [{ destination_id: crypto.destinationId }, 'DESTINATION_TYPE_MISMATCH', 'destination_id'],
      ])
    })
  })

  describe('crypto withdrawals', () => {
    it('to an outside address pay the network fee: the native coin its own', async () => {
      const { token, wallet } = await person()
      const quote = await quoteOk(token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.ETH,
        amount_from: '0.5',
        address: ETH_ADDRESS,
      })
      expect(quote).toMatchObject({
        from: { amount: '0.500000000000000000', chain: 'ethereum', decimals: 18 },
        to: { amount: '0.500000000000000000' },
        fees: [{ kind: 'NETWORK', currency: 'ETH', amount: '0.000400000000000000' }],
        total: '0.500400000000000000',
        // Stored and shown as the chain writes it (EIP-55).
        target: {
          kind: 'address',
          wallet_uuid: null,
          chain: 'ethereum',
          address: ETH_ADDRESS_EIP55,
          display: '0x9858…da94',
        },
      })
    })

    it('a token pays its chain’s token fee, converted at the rates and rounded up', async () => {
      const { token, wallet } = await person()
      const rates = fixPrices()
      const quote = await quoteOk(token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '100',
        address: TRON_ADDRESS,
      })
      // One call for every price: USDT for the limits, TRX for the fee.
      expect(rates).toHaveBeenCalledTimes(1)
      expect(new Set(rates.mock.calls[0]![1])).toEqual(new Set(['USDT', 'TRX']))
      // 15 TRX × 0.2453 USD = 3.6795 USDT.
      expect(quote.fees).toEqual([
        {
          kind: 'NETWORK',
          currency_uuid: CURRENCY.USDT_TRON,
          currency: 'USDT',
          amount: '3.679500',
          percent: null,
        },
      ])
      expect(quote.total).toBe('103.679500')
      expect(quote.target).toMatchObject({ kind: 'address', chain: 'tron', address: TRON_ADDRESS })

      // 0.0012 ETH × 3412.56 / 0.9999 = 4.0954815… USDC: up to 4.095482.
      fixPrices()
      const usdc = await quoteOk(token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDC_ETH,
        amount_to: '20',
        address: ETH_ADDRESS,
      })
      expect(usdc.fees).toMatchObject([{ kind: 'NETWORK', amount: '4.095482' }])
      expect(usdc.from.amount).toBe('20.000000')
    })

    it('to an address of another wallet on the platform is internal: no network fee', async () => {
      const { token, wallet, pair } = await person()
      const other = await person()
      const theirs = await newAddress(other.pair, other.wallet, 'tron')
      const quote = await quoteOk(token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '50',
        address: theirs,
      })
      expect(quote.fees).toEqual([])
      expect(quote.total).toBe('50.000000')
      expect(quote.target).toMatchObject({
        kind: 'wallet',
        wallet_uuid: other.wallet,
        chain: 'tron',
        address: theirs,
      })

      // The same user's second wallet: internal too.
      const second = (await createWallet(app, pair.access_token)).uuid
      const mine = await newAddress(pair, second, 'ethereum')
      const toSecond = await quoteOk(token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.ETH,
        amount_from: '0.01',
        address: mine.toLowerCase(),
      })
      expect(toSecond.target).toMatchObject({ kind: 'wallet', wallet_uuid: second, address: mine })
      expect(toSecond.fees).toEqual([])

      // The paying wallet's own address: the money would come straight back.
      const own = await newAddress(pair, wallet, 'tron')
      const query = { order_type: 'WITHDRAWAL_CRYPTO', wallet_uuid: wallet, address: own }
      await refuses(token, query, [
        [{ from_uuid: CURRENCY.USDT_TRON, amount_from: '50' }, 'TARGET_IS_SOURCE', 'address'],
      ])
    })

    it('to a saved crypto destination: on its chain, external or internal', async () => {
      const { token, wallet } = await person()
      const base = {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '30',
      }
      const outside = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: TRON_ADDRESS,
      })
      const external = await quoteOk(token, { ...base, destination_id: outside.destinationId })
      expect(external.fees.map((fee) => fee.kind)).toEqual(['NETWORK'])
      expect(external.target).toMatchObject({
        kind: 'counterparty',
        wallet_uuid: null,
        counterparty_account_id: outside.counterpartyId,
        counterparty_destination_id: outside.destinationId,
        destination_type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: TRON_ADDRESS,
        display: 'Anna Schmidt · TUEZ…WYdH',
      })

      // An "external" destination that is a wallet on the platform is paid internally.
      const other = await person()
      const theirs = await newAddress(other.pair, other.wallet, 'tron')
      const saved = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: theirs,
      })
      const internal = await quoteOk(token, { ...base, destination_id: saved.destinationId })
      expect(internal.fees).toEqual([])
      expect(internal.target).toMatchObject({
        kind: 'wallet',
        wallet_uuid: other.wallet,
        counterparty_destination_id: saved.destinationId,
        destination_type: 'CRYPTO_EXTERNAL',
        address: theirs,
      })

      const wallets = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_INTERNAL',
        targetWalletId: other.wallet,
      })
      const toWallet = await quoteOk(token, { ...base, destination_id: wallets.destinationId })
      expect(toWallet.fees).toEqual([])
      expect(toWallet.target).toMatchObject({
        kind: 'wallet',
        counterparty_account_id: wallets.counterpartyId,
        counterparty_destination_id: wallets.destinationId,
        destination_type: 'CRYPTO_INTERNAL',
        wallet_uuid: other.wallet,
      })

      const self = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_INTERNAL',
        targetWalletId: wallet,
      })
      const ethereum = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'ethereum',
        address: ETH_ADDRESS_EIP55,
      })
      const sepa = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'SEPA',
        iban: SEPA_IBAN,
      })
      await refuses(token, base, [
        [{ destination_id: self.destinationId }, 'TARGET_IS_SOURCE', 'destination_id'],
        [{ destination_id: ethereum.destinationId }, 'CHAIN_MISMATCH', 'destination_id'],
        [{ destination_id: sepa.destinationId }, 'DESTINATION_TYPE_MISMATCH', 'destination_id'],
      ])
    })

    it('name the full address, as the chain writes it, and its chain: typed or saved', async () => {
      const { pair, token, wallet } = await person()
      // Typed loosely: lower-case EVM, upper-case bech32, a stray space from a paste.
      const typed = async (from: string, address: string) =>
        (
          await quoteOk(token, {
            order_type: 'WITHDRAWAL_CRYPTO',
            wallet_uuid: wallet,
            from_uuid: from,
            amount_from: '0.01',
            address,
          })
        ).target
      expect(await typed(CURRENCY.ETH, ` ${ETH_ADDRESS} `)).toMatchObject({
        kind: 'address',
        chain: 'ethereum',
        address: ETH_ADDRESS_EIP55,
        display: '0x9858…da94',
      })
      expect(await typed(CURRENCY.BTC, BECH32_ADDRESS.toUpperCase())).toMatchObject({
        kind: 'address',
        chain: 'bitcoin',
        address: BECH32_ADDRESS,
      })

      // Saved through the counterparties API, spelled as loosely.
      const v2 = async <T>(url: string, payload: object) => {
        const response = await app.inject({
          method: 'POST',
          url: `/api/v2/counterparties/${url}`,
          headers: headers(bearer(pair.access_token)),
          payload,
        })
        expect(response.statusCode, response.body).toBe(201)
        return response.json<T>()
      }
      const anna = await v2<Counterparty>(wallet, {
        type: 'INDIVIDUAL',
        first_name: 'Anna',
        last_name: 'Schmidt',
        country: 'DE',
      })
      const saved = await v2<Destination>(
        `${wallet}/${anna.counterparty_account_id}/destinations`,
        {
          type: 'CRYPTO_EXTERNAL',
          chain: 'ethereum',
          address: ETH_ADDRESS,
        },
      )
      const quote = await quoteOk(token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDC_ETH,
        amount_from: '25',
        destination_id: saved.counterparty_destination_id,
      })
      expect(quote.target).toEqual({
        kind: 'counterparty',
        wallet_uuid: null,
        counterparty_account_id: anna.counterparty_account_id,
        counterparty_destination_id: saved.counterparty_destination_id,
        destination_type: 'CRYPTO_EXTERNAL',
        fiat_account_id: null,
        chain: 'ethereum',
        address: ETH_ADDRESS_EIP55,
        display: 'Anna Schmidt · 0x9858…da94',
      })
      // The token, which the order copies, says the same.
      const row = app.services.quotes.tokens.open(await ownerOf(pair), quote.quote_id)
      expect(row?.target).toEqual(quote.target)
    })

    it('refuse an invalid address, fiat, and a target given twice or not at all', async () => {
      const { token, wallet } = await person()
      const base = {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '30',
      }
      // An Ethereum address is no Tron address.
      const invalid = expectProblem(
        await calc(app, token, { ...base, address: ETH_ADDRESS }),
        422,
        'ADDRESS_INVALID',
      )
      expect(invalid.errors).toEqual([
        { field: '/querystring/address', message: expect.stringContaining('tron') },
      ])
      await refuses(token, base, [
        [{ from_uuid: CURRENCY.EUR, address: TRON_ADDRESS }, 'CURRENCY_NOT_ALLOWED', 'from_uuid'],
        [{}, 'VALIDATION_FAILED', 'destination_id'],
      ])
      const saved = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: TRON_ADDRESS,
      })
      await refuses(token, base, [
        [
          { address: TRON_ADDRESS, destination_id: saved.destinationId },
          'VALIDATION_FAILED',
          'address',
        ],
      ])
    })
  })

  describe('internal exchange', () => {
    it('converts at the sandbox mid rate less the spread, with the exchange fee', async () => {
      const { token, wallet } = await person()
      const rates = vi.spyOn(app.rates, 'quote')
      const quote = await quoteOk(token, {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        to_uuid: CURRENCY.BTC,
        amount_from: '25',
      })
      expect(rates).toHaveBeenCalledTimes(1)
      // The quote's rates are the minute's when it was made (or the one before, at a boundary).
      const created = Date.parse(quote.created_at)
      const minute = created - (created % 60_000)
      const usd = (code: string, at: number) => ratio(sandboxPriceMicroUsd(code, at)!, 1_000_000n)
      const expected = [minute, minute - 60_000].map((at) =>
        exchangeRate(usd('USDT', at), usd('BTC', at), '0.5'),
      )
      expect(expected).toContain(quote.rate)
      expect(quote).toMatchObject({
        from: { currency: 'USDT', chain: 'tron', amount: '25.000000' },
        to: { currency: 'BTC', chain: 'bitcoin', decimals: 8 },
        fees: [{ kind: 'PERCENT', amount: '0.025000', percent: '0.1' }],
        total: '25.025000',
        target: { kind: 'wallet', wallet_uuid: wallet, display: 'This wallet' },
      })
    })

    it('given what must arrive, pays the least that gets at least that', async () => {
      const { token, wallet } = await person()
      fixPrices()
      const quote = await quoteOk(token, {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        to_uuid: CURRENCY.USDT_ETH,
        amount_to: '100',
      })
      // 1.0834 / 1.00 less 0.3 %.
      expect(quote.rate).toBe('1.0801498')
      // 100 / 1.0801498 = 92.5798… → 92.58 EUR, which buys 100.000268 USDT.
      expect(quote.from.amount).toBe('92.58')
      expect(quote.to.amount).toBe('100.000268')
      expect(quote.fees).toMatchObject([{ kind: 'PERCENT', amount: '0.10', percent: '0.1' }])
    })

    it('lands in another wallet of the same user; never another user’s', async () => {
      const { token, wallet, pair } = await person()
      const second = await createWallet(app, pair.access_token, 'trading')
      const base = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.BTC,
        to_uuid: CURRENCY.ETH,
        amount_from: '0.01',
      }
      const quote = await quoteOk(token, { ...base, to_wallet_uuid: second.uuid })
      expect(quote.target).toMatchObject({
        kind: 'wallet',
        wallet_uuid: second.uuid,
        display: 'Your trading wallet',
      })
      const other = await person()
      await refuses(token, base, [[{ to_wallet_uuid: other.wallet }, 'WALLET_NOT_FOUND']])
    })

    it('needs two different codes: no same currency, no bridge between chains', async () => {
      const { token, wallet } = await person()
      const base = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '25',
      }
      for (const to of [CURRENCY.USDT_TRON, CURRENCY.USDT_ETH]) {
        await refuses(token, base, [[{ to_uuid: to }, 'DIRECTION_NOT_OFFERED', 'to_uuid']])
      }
      await refuses(token, base, [[{}, 'VALIDATION_FAILED', 'to_uuid']])
    })
  })

  describe('card top-ups', () => {
    it('a prepaid account is topped up in its currency, at its program’s percentage', async () => {
      const { token, wallet } = await person()
      const account = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet, {
        subAccountType: 'prepaid',
        topUpPercent: '1',
      })
      const rates = vi.spyOn(app.rates, 'quote')
      const quote = await quoteOk(token, {
        order_type: 'TRANSFER_CARD_PREPAID',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '123.45',
        fiat_account_id: account,
      })
      expect(rates).not.toHaveBeenCalled()
      expect(quote).toMatchObject({
        to: { currency: 'EUR', amount: '123.45' },
        // 1 % of 123.45 = 1.2345, up to 1.24.
        fees: [{ kind: 'PERCENT', amount: '1.24', percent: '1' }],
        total: '124.69',
        target: {
          kind: 'fiat_account',
          fiat_account_id: account,
          wallet_uuid: wallet,
          display: 'Test prepaid account · EUR',
        },
      })
    })

    it('a balance sub-account, in another of the user’s wallets', async () => {
      const { token, wallet, pair } = await person()
      const second = await createWallet(app, pair.access_token)
      const account = await insertFiatAccount(app.db, DEMO_TENANT_ID, second.uuid, {
        subAccountType: 'balance',
        currency: CURRENCY.USD,
        topUpPercent: '0',
      })
      const quote = await quoteOk(token, {
        order_type: 'TRANSFER_CARD_SUBACCOUNT',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USD,
        amount_from: '40',
        fiat_account_id: account,
      })
      expect(quote.fees).toEqual([])
      expect(quote.target).toMatchObject({ fiat_account_id: account, wallet_uuid: second.uuid })
    })

    it('wholesale: USDT or USDC into the account’s fiat at the quoted rate', async () => {
      const { token, wallet } = await person()
      const account = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet, {
        subAccountType: 'balance',
        topUpPercent: '0.5',
      })
      fixPrices()
      const quote = await quoteOk(token, {
        order_type: 'TRANSFER_CARD_WHOLESALE',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '1000',
        fiat_account_id: account,
      })
      expect(quote.rate).toBe(exchangeRate('1.00', '1.0834', '0.3'))
      expect(quote).toMatchObject({
        from: { currency: 'USDT', amount: '1000.000000' },
        to: { currency: 'EUR', amount: '920.25' },
        fees: [{ kind: 'PERCENT', amount: '5.000000', percent: '0.5' }],
        total: '1005.000000',
      })
      const wholesale = { order_type: 'TRANSFER_CARD_WHOLESALE', wallet_uuid: wallet }
      await refuses(token, wholesale, [
        [
          { from_uuid: CURRENCY.BTC, amount_from: '0.01', fiat_account_id: account },
          'CURRENCY_NOT_ALLOWED',
          'from_uuid',
        ],
      ])
    })

    it('refuses another currency, the wrong kind of account, a blocked or foreign one', async () => {
      const { token, wallet } = await person()
      const prepaid = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet)
      const blocked = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet, { status: 'BLOCKED' })
      const other = await person()
      const foreign = await insertFiatAccount(app.db, DEMO_TENANT_ID, other.wallet)
      const base = {
        order_type: 'TRANSFER_CARD_PREPAID',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '10',
      }
      await refuses(token, base, [
        [
          { from_uuid: CURRENCY.USD, fiat_account_id: prepaid },
          'CURRENCY_NOT_ALLOWED',
          'from_uuid',
        ],
        [
          { order_type: 'TRANSFER_CARD_SUBACCOUNT', fiat_account_id: prepaid },
          'FIAT_ACCOUNT_TYPE_MISMATCH',
          'fiat_account_id',
        ],
        [{ fiat_account_id: blocked }, 'FIAT_ACCOUNT_NOT_ACTIVE', 'fiat_account_id'],
        [{ fiat_account_id: foreign }, 'FIAT_ACCOUNT_NOT_FOUND'],
        [{}, 'VALIDATION_FAILED', 'fiat_account_id'],
      ])
    })
  })

  describe('limits', () => {
    it('fiat between 1.00 and 50 000.00, naming the amount given', async () => {
      const { token, wallet } = await person()
      const base = { order_type: 'DEPOSIT_FIAT_SEPA', wallet_uuid: wallet, from_uuid: CURRENCY.EUR }
      // The bound itself, for a client to word: in the currency paid, as a decimal string.
      const eur = (amount: string) => ({ amount, currency: 'EUR' })
      await outOfBounds(token, base, [
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
      await quoteOk(token, { ...base, amount_from: '50000' })
      await quoteOk(token, { ...base, amount_from: '1' })
    })

    it('coins between 5 and 100 000 USD at the day’s price', async () => {
      const { token, wallet } = await person()
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
        fixPrices,
      )
      fixPrices()
      await quoteOk(token, { ...base, amount_from: '0.00005137' })
    })
  })

  describe('validation', () => {
    it('exactly one amount, in the decimals of its currency', async () => {
      const { token, wallet } = await person()
      const base = { order_type: 'DEPOSIT_FIAT_SEPA', wallet_uuid: wallet, from_uuid: CURRENCY.EUR }
      const neither = expectProblem(await calc(app, token, base), 422, 'VALIDATION_FAILED')
      // Worded as the schema's own 422s are.
      expect(neither.detail).toBe('/querystring/amount_from is required (or give amount_to)')
      expect(neither.errors).toEqual([
        { field: '/querystring/amount_from', message: 'is required (or give amount_to)' },
      ])
      await refuses(token, base, [
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
      await refuses(token, exchange, [
        [{ amount_to: '0.000000001' }, 'VALIDATION_FAILED', 'amount_to'],
      ])
      await refuses(token, base, [[{ amount_from: '-1' }, 'VALIDATION_FAILED', 'amount_from']])
    })

    it('a parameter the order type does not use, or a to_uuid it does not pay in', async () => {
      const { token, wallet } = await person()
      const base = sepaDeposit(wallet)
      await refuses(token, base, [
        [{ address: TRON_ADDRESS }, 'VALIDATION_FAILED', 'address'],
        [{ fiat_account_id: randomUUID() }, 'VALIDATION_FAILED', 'fiat_account_id'],
        [{ to_uuid: CURRENCY.USD }, 'VALIDATION_FAILED', 'to_uuid'],
      ])
    })

    it('unknown currencies and order types, and malformed uuids', async () => {
      const { token, wallet } = await person()
      const base = sepaDeposit(wallet)
      await refuses(token, base, [
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
      await refuses(token, base, [[{ wallet_uuid: 'nope' }, 'VALIDATION_FAILED', 'wallet_uuid']])
    })
  })

  describe('who may ask', () => {
    it('another user’s wallet answers 404 like a missing one', async () => {
      const { token } = await person()
      const other = await person()
      const query = {
        order_type: 'DEPOSIT_FIAT_SEPA',
        from_uuid: CURRENCY.EUR,
        amount_from: '10',
      }
      for (const wallet of [other.wallet, randomUUID()]) {
        await refuses(token, query, [[{ wallet_uuid: wallet }, 'WALLET_NOT_FOUND']])
      }
    })

    it('v1 takes the raw token only', async () => {
      const { token, wallet } = await person()
      const query = sepaDeposit(wallet)
      expectProblem(await calc(app, '', query), 401, 'UNAUTHORIZED')
      expectProblem(await calc(app, `Bearer ${token}`, query), 401, 'UNAUTHORIZED')
    })
  })

  describe('the rates provider', () => {
    it('failing answers 502 RATES_UNAVAILABLE', async () => {
      const { token, wallet } = await person()
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
      fixPrices({ BTC: '97342.18' })
      expectProblem(await calc(app, token, query), 502, 'RATES_UNAVAILABLE')
      // The next call prices again.
      await quoteOk(token, query)
    })
  })

  it('a quote given earlier carries its own expiry, TTL seconds after it was given', async () => {
    const { pair, wallet } = await person()
    const owner = await ownerOf(pair)
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

  async function ownerOf(pair: TokenPair): Promise<Owner> {
    const claims = await app.tokens.verifyAccess(pair.access_token)
    return { tenantId: DEMO_TENANT_ID, userId: claims!.userId }
  }
})

const KEY = Buffer.alloc(32, 3).toString('base64url')
const dataDir = () => join(tmpdir(), `quotes-config-${process.pid}`)
