import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import {
  ownerOf,
  person,
  quoteOk,
  refuses,
  SEPA_IBAN,
  TRON_ADDRESS,
} from './quote-calc-fixtures.ts'
import { CURRENCY, insertDestination } from './quote-test-support.ts'
import { toQuote } from './quote-view.ts'

/**
 * Firm quotes for the bank rails: deposits by SEPA and SWIFT, withdrawals to a SEPA
 * destination.
 */
describeServer('firm quotes: bank deposits and withdrawals', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())
  afterEach(() => {
    vi.restoreAllMocks()
  })

  describe('deposits', () => {
    it('a SEPA deposit in euro is free, needs no rates, and its token carries it as quoted', async () => {
      const { token, pair, wallet } = await person(app)
      const rates = vi.spyOn(app.rates, 'quote')
      const quote = await quoteOk(app, token, {
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
      const row = app.services.quotes.tokens.open(await ownerOf(app, pair), quote.quote_id)
      expect(row).toBeDefined()
      const eur = { uuid: CURRENCY.EUR, code: 'EUR', chain: null, decimals: 2 }
      expect(toQuote(row!, new Map([[CURRENCY.EUR, eur]]))).toEqual(quote)
      // Another user opens nothing with that token.
      const other = await person(app)
      expect(app.services.quotes.tokens.open(await ownerOf(app, other.pair), quote.quote_id)).toBe(
        undefined,
      )
    })

    it('a SWIFT deposit takes EUR, USD or GBP and a fixed fee on top', async () => {
      const { token, wallet } = await person(app)
      const quote = await quoteOk(app, token, {
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
      await quoteOk(app, token, {
        order_type: 'DEPOSIT_FIAT_SWIFT',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.GBP,
        amount_from: '1',
      })
    })

    it('a deposit in a currency its rail does not carry is refused, naming from_uuid', async () => {
      const { token, wallet } = await person(app)
      await refuses(app, token, { wallet_uuid: wallet, amount_from: '10' }, [
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
      const { token, wallet } = await person(app)
      const { counterpartyId, destinationId } = await insertDestination(
        app.db,
        DEMO_TENANT_ID,
        wallet,
        { type: 'SEPA', iban: SEPA_IBAN },
      )
      const quote = await quoteOk(app, token, {
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
      const { token, wallet } = await person(app)
      const base = {
        order_type: 'WITHDRAWAL_FIAT_SEPA',
        wallet_uuid: wallet,
        from_uuid: CURRENCY.EUR,
        amount_from: '10',
      }
      // A destination of another wallet's counterparty (even the same user's) is not this wallet's.
      const other = await person(app)
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
      await refuses(app, token, base, [
        [{}, 'VALIDATION_FAILED', 'destination_id'],
        [{ destination_id: foreign.destinationId }, 'DESTINATION_NOT_FOUND'],
        [{ destination_id: deleted.destinationId }, 'DESTINATION_NOT_FOUND'],
        [{ destination_id: crypto.destinationId }, 'DESTINATION_TYPE_MISMATCH', 'destination_id'],
      ])
    })
  })
})
