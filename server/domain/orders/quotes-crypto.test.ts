import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Counterparty, Destination } from '../../../contract/counterparties.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import {
  BECH32_ADDRESS,
  ETH_ADDRESS,
  ETH_ADDRESS_EIP55,
  fixPrices,
  newAddress,
  ownerOf,
  person,
  quoteOk,
  refuses,
  SEPA_IBAN,
  TRON_ADDRESS,
} from './quote-calc-fixtures.ts'
import { CURRENCY, calc, insertDestination } from './quote-test-support.ts'

/**
 * Firm quotes for a crypto withdrawal: to an outside address, another wallet of the platform, a
 * saved destination.
 */
describeServer('firm quotes: crypto withdrawals', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())
  afterEach(() => {
    vi.restoreAllMocks()
  })

  describe('crypto withdrawals', () => {
    it('to an outside address pay the network fee: the native coin its own', async () => {
      const { token, wallet } = await person(app)
      const quote = await quoteOk(app, token, {
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
      const { token, wallet } = await person(app)
      const rates = fixPrices(app)
      const quote = await quoteOk(app, token, {
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
      fixPrices(app)
      const usdc = await quoteOk(app, token, {
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
      const { token, wallet, pair } = await person(app)
      const other = await person(app)
      const theirs = await newAddress(app, other.pair, other.wallet, 'tron')
      const quote = await quoteOk(app, token, {
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
      const mine = await newAddress(app, pair, second, 'ethereum')
      const toSecond = await quoteOk(app, token, {
        order_type: 'WITHDRAWAL_CRYPTO',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.ETH,
        amount_from: '0.01',
        address: mine.toLowerCase(),
      })
      expect(toSecond.target).toMatchObject({ kind: 'wallet', wallet_uuid: second, address: mine })
      expect(toSecond.fees).toEqual([])

      // The paying wallet's own address: the money would come straight back.
      const own = await newAddress(app, pair, wallet, 'tron')
      const query = { order_type: 'WITHDRAWAL_CRYPTO', wallet_uuid: wallet, address: own }
      await refuses(app, token, query, [
        [{ from_uuid: CURRENCY.USDT_TRON, amount_from: '50' }, 'TARGET_IS_SOURCE', 'address'],
      ])
    })

    it('to a saved crypto destination: on its chain, external or internal', async () => {
      const { token, wallet } = await person(app)
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
      const external = await quoteOk(app, token, { ...base, destination_id: outside.destinationId })
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
      const other = await person(app)
      const theirs = await newAddress(app, other.pair, other.wallet, 'tron')
      const saved = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: theirs,
      })
      const internal = await quoteOk(app, token, { ...base, destination_id: saved.destinationId })
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
      const toWallet = await quoteOk(app, token, { ...base, destination_id: wallets.destinationId })
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
      await refuses(app, token, base, [
        [{ destination_id: self.destinationId }, 'TARGET_IS_SOURCE', 'destination_id'],
        [{ destination_id: ethereum.destinationId }, 'CHAIN_MISMATCH', 'destination_id'],
        [{ destination_id: sepa.destinationId }, 'DESTINATION_TYPE_MISMATCH', 'destination_id'],
      ])
    })

    it('name the full address, as the chain writes it, and its chain: typed or saved', async () => {
      const { pair, token, wallet } = await person(app)
      // Typed loosely: lower-case EVM, upper-case bech32, a stray space from a paste.
      const typed = async (from: string, address: string) =>
        (
          await quoteOk(app, token, {
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
      const quote = await quoteOk(app, token, {
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
      const row = app.services.quotes.tokens.open(await ownerOf(app, pair), quote.quote_id)
      expect(row?.target).toEqual(quote.target)
    })

    it('refuse an invalid address, fiat, and a target given twice or not at all', async () => {
      const { token, wallet } = await person(app)
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
      await refuses(app, token, base, [
        [{ from_uuid: CURRENCY.EUR, address: TRON_ADDRESS }, 'CURRENCY_NOT_ALLOWED', 'from_uuid'],
        [{}, 'VALIDATION_FAILED', 'destination_id'],
      ])
      const saved = await insertDestination(app.db, DEMO_TENANT_ID, wallet, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'tron',
        address: TRON_ADDRESS,
      })
      await refuses(app, token, base, [
        [
          { address: TRON_ADDRESS, destination_id: saved.destinationId },
          'VALIDATION_FAILED',
          'address',
        ],
      ])
    })
  })
})
