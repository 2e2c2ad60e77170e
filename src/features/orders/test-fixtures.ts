import {
  aBalance,
  aCurrency,
  aWallet,
  BTC_UUID,
  USDT_UUID,
} from '../../../tests/support/builders.ts'

/** The currencies, wallet and exchange direction the order screens' tests share. */

export const EUR_UUID = '0190b0a4-0000-7000-8000-0000000000c9'
export const EUR = aCurrency({
  uuid: EUR_UUID,
  code: 'EUR',
  name: 'Euro',
  type: 'fiat',
  decimals: 2,
  chain: null,
})

export const BTC = aCurrency({
  uuid: BTC_UUID,
  code: 'BTC',
  name: 'Bitcoin',
  type: 'native',
  decimals: 8,
  chain: 'bitcoin',
})

/** A wallet holding 500 USDT on Tron. */
export const USDT_WALLET = aWallet({
  balances: [
    aBalance({
      currency_uuid: USDT_UUID,
      currency: 'USDT',
      chain: 'tron',
      decimals: 6,
      available: '500',
    }),
  ],
})

/** USDT (Tron) into BTC, as GET /exchange/ lists it. */
export const USDT_TO_BTC = {
  order_type: 'EXCHANGE_CRYPTO_INTERNAL',
  from: { currency_uuid: USDT_UUID, currency: 'USDT', chain: 'tron' },
  to: { currency_uuid: BTC_UUID, currency: 'BTC', chain: 'bitcoin' },
  rate: '0.0000158',
  min_amount: '10',
  max_amount: '100000',
  fee_fixed: '1',
  fee_percent: '0.5',
  network_fee: null,
  as_of: '2026-01-05T10:00:00Z',
}
