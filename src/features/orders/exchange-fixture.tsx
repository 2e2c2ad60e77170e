import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { expect, vi } from 'vitest'
import type { Quote } from '../../../contract/orders.ts'
import {
  aCurrency,
  anOrder,
  aPage,
  aQuote,
  BTC_UUID,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { type Call, mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import ExchangePage from './exchange-page.tsx'
import { BTC, USDT_TO_BTC, USDT_WALLET } from './test-fixtures.ts'

// The exchange, the order flow's test bench: its page over a mocked API with a quote that
// follows what was typed (order-flow*.test.tsx).

export const USDT = aCurrency()
export const WALLET = USDT_WALLET
export const DIRECTION = USDT_TO_BTC

/** A quote for what was asked: amount_from as typed, fees and BTC worked out like the server. */
export function quoteFor(call: Call, overrides: Partial<Quote> = {}): Quote {
  const amount = call.query.get('amount_from') ?? '100'
  const base = aQuote()
  return {
    ...base,
    quote_id: `0190b0a4-0000-7000-8000-${String(quoteCount++).padStart(12, '0')}`,
    from: { ...base.from, amount },
    to: { ...base.to, amount: `0.00${amount.replace('.', '')}` },
    total: `${Number(amount) + 1.5}`,
    ...overrides,
  }
}
let quoteCount = 0

export function renderExchange(routes: Record<string, Route> = {}, language: 'en' | 'ru' = 'en') {
  const api = mockApi({
    'GET /wallets': { body: aPage([WALLET]) },
    'GET /currencies': { body: aPage([USDT, BTC]) },
    'GET /chains': { body: aPage([]) },
    'GET /exchange/': { body: aPage([DIRECTION]) },
    'GET /orders/calc': (call) => ({ body: quoteFor(call) }),
    'POST /orders/EXCHANGE_CRYPTO_INTERNAL': { status: 201, body: anOrder() },
    [`GET /orders/${anOrder().id}`]: { body: anOrder() },
    ...routes,
  })
  const path = `/exchange?wallet=${WALLET_UUID}&from=${USDT_UUID}&to=${BTC_UUID}`
  return { api, ...renderApp(<ExchangePage />, { path, language }) }
}

export const amountField = () => screen.getByRole('textbox', { name: 'You pay (USDT)' })
export const reviewButton = () => screen.getByRole('button', { name: 'Review' })

/**
 * Types an amount and waits for its quote, then opens the review. (Outside a test file the
 * jest-dom matchers are not typed: `disabled` is what toBeEnabled reads on a button.)
 */
export async function toReview(user: ReturnType<typeof renderExchange>['user'], amount = '100') {
  await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), amount)
  await waitFor(() => expect(reviewButton()).toHaveProperty('disabled', false))
  await user.click(reviewButton())
  return screen.findByRole('heading', { name: 'Check and confirm' })
}

/** What every flow test leaves behind, undone: the page, the connection, clocks, stubs, the tab's store. */
export function afterFlowTest() {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.useRealTimers()
  vi.unstubAllGlobals()
  sessionStorage.clear()
  vi.restoreAllMocks()
}
