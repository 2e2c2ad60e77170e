import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { ratio } from '../../providers/rates/rates.ts'
import { sandboxPriceMicroUsd } from '../../providers/rates/sandbox.ts'
import { createTestApp, createWallet, describeServer } from '../../test-support.ts'
import { exchangeRate } from './pricing.ts'
import { fixPrices, person, quoteOk, refuses } from './quote-calc-fixtures.ts'
import { CURRENCY, insertFiatAccount } from './quote-test-support.ts'

/** Firm quotes for an internal exchange and the card top-ups: rates, spread, fees, accounts. */
describeServer('firm quotes: internal exchange and card top-ups', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())
  afterEach(() => {
    vi.restoreAllMocks()
  })

  describe('internal exchange', () => {
    it('converts at the sandbox mid rate less the spread, with the exchange fee', async () => {
      const { token, wallet } = await person(app)
      const rates = vi.spyOn(app.rates, 'quote')
      const quote = await quoteOk(app, token, {
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
      const { token, wallet } = await person(app)
      fixPrices(app)
      const quote = await quoteOk(app, token, {
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
      const { token, wallet, pair } = await person(app)
      const second = await createWallet(app, pair.access_token, 'trading')
      const base = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.BTC,
        to_uuid: CURRENCY.ETH,
        amount_from: '0.01',
      }
      const quote = await quoteOk(app, token, { ...base, to_wallet_uuid: second.uuid })
      expect(quote.target).toMatchObject({
        kind: 'wallet',
        wallet_uuid: second.uuid,
        display: 'Your trading wallet',
      })
      const other = await person(app)
      await refuses(app, token, base, [[{ to_wallet_uuid: other.wallet }, 'WALLET_NOT_FOUND']])
    })

    it('needs two different codes: no same currency, no bridge between chains', async () => {
      const { token, wallet } = await person(app)
      const base = {
        order_type: 'EXCHANGE_CRYPTO_INTERNAL',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.USDT_TRON,
        amount_from: '25',
      }
      for (const to of [CURRENCY.USDT_TRON, CURRENCY.USDT_ETH]) {
        await refuses(app, token, base, [[{ to_uuid: to }, 'DIRECTION_NOT_OFFERED', 'to_uuid']])
      }
      await refuses(app, token, base, [[{}, 'VALIDATION_FAILED', 'to_uuid']])
    })
  })

  describe('card top-ups', () => {
    it('a prepaid account is topped up in its currency, at its program’s percentage', async () => {
      const { token, wallet } = await person(app)
      const account = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet, {
        subAccountType: 'prepaid',
        topUpPercent: '1',
      })
      const rates = vi.spyOn(app.rates, 'quote')
      const quote = await quoteOk(app, token, {
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
      const { token, wallet, pair } = await person(app)
      const second = await createWallet(app, pair.access_token)
      const account = await insertFiatAccount(app.db, DEMO_TENANT_ID, second.uuid, {
        subAccountType: 'balance',
        currency: CURRENCY.USD,
        topUpPercent: '0',
      })
      const quote = await quoteOk(app, token, {
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
      const { token, wallet } = await person(app)
      const account = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet, {
        subAccountType: 'balance',
        topUpPercent: '0.5',
      })
      fixPrices(app)
      const quote = await quoteOk(app, token, {
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
      await refuses(app, token, wholesale, [
        [
          { from_uuid: CURRENCY.BTC, amount_from: '0.01', fiat_account_id: account },
          'CURRENCY_NOT_ALLOWED',
          'from_uuid',
        ],
      ])
    })

    it('refuses another currency, the wrong kind of account, a blocked or foreign one', async () => {
      const { token, wallet } = await person(app)
      const prepaid = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet)
      const blocked = await insertFiatAccount(app.db, DEMO_TENANT_ID, wallet, { status: 'BLOCKED' })
      const other = await person(app)
      const foreign = await insertFiatAccount(app.db, DEMO_TENANT_ID, other.wallet)
      const base = {
        order_type: 'TRANSFER_CARD_PREPAID',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '10',
      }
      await refuses(app, token, base, [
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
})
