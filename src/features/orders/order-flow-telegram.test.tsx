import { act, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import {
  aCurrency,
  anOrder,
  aPage,
  aQuote,
  BTC_UUID,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { MiniAppProvider } from '../../telegram/mini-app.tsx'
import ExchangePage from './exchange-page.tsx'
import { telegram } from './telegram-fixture.ts'
import { BTC, USDT_TO_BTC, USDT_WALLET } from './test-fixtures.ts'

function renderExchangeInTelegram(routes: Record<string, Route> = {}) {
  const tg = telegram()
  const api = mockApi({
    'GET /wallets': { body: aPage([USDT_WALLET]) },
    'GET /currencies': { body: aPage([aCurrency(), BTC]) },
    'GET /chains': { body: aPage([]) },
    'GET /exchange/': { body: aPage([USDT_TO_BTC]) },
    'GET /orders/calc': { body: aQuote() },
    'POST /orders/EXCHANGE_CRYPTO_INTERNAL': { status: 201, body: anOrder() },
    [`GET /orders/${anOrder().id}`]: { body: anOrder() },
    ...routes,
  })
  const path = `/exchange?wallet=${WALLET_UUID}&from=${USDT_UUID}&to=${BTC_UUID}`
  const rendered = renderApp(
    <MiniAppProvider controls={tg.controls}>
      <ExchangePage />
    </MiniAppProvider>,
    { path },
  )
  return { api, tg, ...rendered }
}

afterEach(() => {
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('the order flow in Telegram', () => {
  it('puts Review, then Confirm on the MainButton, asks before closing while placing, and buzzes on success', async () => {
    let answer: (order: Order) => void = () => {}
    const { api, tg, user } = renderExchangeInTelegram({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': () =>
        new Promise((resolve) => {
          answer = (order) => resolve({ status: 201, body: order })
        }),
    })
    await screen.findByRole('textbox', { name: 'You pay (USDT)' })
    expect(tg.state.mainButton).toEqual({ text: 'Review', enabled: false, busy: false })

    await user.type(screen.getByRole('textbox', { name: 'You pay (USDT)' }), '100')
    await waitFor(() => expect(tg.state.mainButton?.enabled).toBe(true))
    act(() => tg.state.pressMain())
    await screen.findByRole('heading', { name: 'Check and confirm' })
    expect(tg.state.mainButton).toEqual({ text: 'Confirm', enabled: true, busy: false })
    expect(tg.state.closing).toBe(false)

    act(() => tg.state.pressMain())
    await waitFor(() =>
      expect(tg.state.mainButton).toEqual({ text: 'Confirming…', enabled: false, busy: true }),
    )
    expect(tg.state.closing).toBe(true)

    act(() => answer(anOrder()))
    await screen.findByRole('heading', { name: 'Exchange placed' })
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toHaveLength(1)
    expect(tg.state.closing).toBe(false)
    expect(tg.state.mainButton).toBeUndefined()
    expect(tg.state.haptics).toContain('success')
  })

  it('buzzes an error when placing fails', async () => {
    const { tg, user } = renderExchangeInTelegram({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': problem(422, 'INSUFFICIENT_FUNDS'),
    })
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '100')
    await waitFor(() => expect(tg.state.mainButton?.enabled).toBe(true))
    act(() => tg.state.pressMain())
    await screen.findByRole('heading', { name: 'Check and confirm' })
    act(() => tg.state.pressMain())
    await waitFor(() => expect(tg.state.haptics).toContain('error'))
    expect(tg.state.haptics).not.toContain('success')
  })
})
