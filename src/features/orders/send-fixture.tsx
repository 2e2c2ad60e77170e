import { cleanup } from '@testing-library/react'
import { vi } from 'vitest'
import type { Counterparty, Destination } from '../../../contract/counterparties.ts'
import {
  aBalance,
  aCurrency,
  anOrder,
  aPage,
  aQuote,
  aWallet,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import SendPage from './send-page.tsx'
import { EUR, EUR_UUID } from './test-fixtures.ts'

// The send page's test bench: a wallet with two recipients and their destinations (send-*.test.tsx).

export const USDT = aCurrency()
export const ANNA = '0190b0a4-0000-7000-8000-00000000cc01'
export const BOB = '0190b0a4-0000-7000-8000-00000000cc02'

export const counterparty = (id: string, name: string, count: number): Counterparty => ({
  counterparty_account_id: id,
  wallet_id: WALLET_UUID,
  type: 'INDIVIDUAL',
  name,
  first_name: name,
  last_name: null,
  legal_name: null,
  email: null,
  phone: null,
  country: 'DE',
  address: null,
  destinations_count: count,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
})

export const destination = (overrides: Partial<Destination>): Destination => ({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd01',
  counterparty_account_id: ANNA,
  type: 'SEPA',
  label: null,
  iban: 'DE89370400440532013000',
  bic: null,
  account_number: null,
  routing_number: null,
  account_type: null,
  bank_name: null,
  bank_country: null,
  chain: null,
  address: null,
  wallet_uuid: null,
  display: 'DE89 … 3000',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
})

export const SEPA = destination({ label: 'Main account' })
export const TRON = destination({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd02',
  type: 'CRYPTO_EXTERNAL',
  iban: null,
  chain: 'tron',
  address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
  display: 'TJCn…sxMW',
})
export const ACH = destination({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd03',
  type: 'ACH',
  iban: null,
  display: '•••• 6789',
})
export const BOB_SEPA = destination({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd04',
  counterparty_account_id: BOB,
  display: 'FR76 … 0189',
})

export const eurQuote = aQuote({
  order_type: 'WITHDRAWAL_FIAT_SEPA',
  from: { currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2, amount: '50' },
  to: { currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2, amount: '50' },
  rate: '1.00',
  fees: [{ kind: 'FIXED', currency_uuid: EUR_UUID, currency: 'EUR', amount: '1', percent: null }],
  total: '51',
})

export const P2P_UUID = '0190b0a4-0000-7000-8000-0000000000a2'

export function renderSend(search: string, routes: Record<string, Route> = {}) {
  const api = mockApi({
    'GET /wallets': {
      body: aPage([
        aWallet({
          balances: [
            aBalance({
              currency_uuid: EUR_UUID,
              currency: 'EUR',
              chain: null,
              decimals: 2,
              available: '300',
            }),
            aBalance({
              currency_uuid: USDT_UUID,
              currency: 'USDT',
              chain: 'tron',
              decimals: 6,
              available: '80',
            }),
          ],
        }),
        aWallet({
          uuid: P2P_UUID,
          type: 'trading',
          balances: [
            aBalance({
              currency_uuid: USDT_UUID,
              currency: 'USDT',
              chain: 'tron',
              decimals: 6,
              available: '5',
            }),
          ],
        }),
      ]),
    },
    [`GET /counterparties/${P2P_UUID}`]: { body: aPage([]) },
    'GET /currencies': { body: aPage([USDT, EUR]) },
    'GET /chains': {
      body: aPage([
        {
          id: 'tron',
          name: 'Tron',
          native_currency: 'TRX',
          address_format: 'tron',
          confirmations: 20,
        },
      ]),
    },
    [`GET /counterparties/${WALLET_UUID}`]: {
      body: aPage([counterparty(ANNA, 'Anna Schmidt', 3), counterparty(BOB, 'Bob Martin', 1)]),
    },
    [`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`]: { body: aPage([SEPA, TRON, ACH]) },
    [`GET /counterparties/${WALLET_UUID}/${BOB}/destinations`]: { body: aPage([BOB_SEPA]) },
    'GET /orders/calc': { body: eurQuote },
    'POST /orders/WITHDRAWAL_FIAT_SEPA': {
      status: 201,
      body: anOrder({ order_type: 'WITHDRAWAL_FIAT_SEPA' }),
    },
    [`GET /orders/${anOrder().id}`]: { body: anOrder({ order_type: 'WITHDRAWAL_FIAT_SEPA' }) },
    ...routes,
  })
  return { api, ...renderApp(<SendPage />, { path: `/send?wallet=${WALLET_UUID}${search}` }) }
}

/** What every send test leaves behind, undone. */
export function afterSendTest() {
  cleanup()
  vi.unstubAllGlobals()
  sessionStorage.clear()
}
