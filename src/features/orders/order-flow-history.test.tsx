import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { aCurrency, anOrder, aPage, aQuote, WALLET_UUID } from '../../../tests/support/builders.ts'
import type { Call } from '../../../tests/support/mock-api.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { I18nProvider } from '../../i18n/i18n.tsx'
import ExchangePage from './exchange-page.tsx'
import { BTC, USDT_TO_BTC, USDT_WALLET } from './test-fixtures.ts'

/*
 * The flow against the browser's own history (happy-dom's), as a phone's
 * back gesture walks it: no memory location here.
 */

const WALLET = USDT_WALLET
const DIRECTION = USDT_TO_BTC

function renderInBrowser() {
  const api = mockApi({
    'GET /wallets': { body: aPage([WALLET]) },
    'GET /currencies': { body: aPage([aCurrency(), BTC]) },
    'GET /chains': { body: aPage([]) },
    'GET /exchange/': { body: aPage([DIRECTION]) },
    'GET /orders/calc': (call: Call) => ({
      body: aQuote({ from: { ...aQuote().from, amount: call.query.get('amount_from')! } }),
    }),
    'POST /orders/EXCHANGE_CRYPTO_INTERNAL': { status: 201, body: anOrder() },
    [`GET /orders/${anOrder().id}`]: { body: anOrder() },
  })
  // Where the person came from, then the form.
  history.replaceState(null, '', '/')
  history.pushState(null, '', `/exchange?wallet=${WALLET_UUID}`)
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider initial="en">
        <Router>
          <ExchangePage />
        </Router>
      </I18nProvider>
    </QueryClientProvider>,
  )
  return { api, user: userEvent.setup() }
}

async function toReview(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '100')
  await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
  await user.click(screen.getByRole('button', { name: 'Review' }))
  await screen.findByRole('heading', { name: 'Check and confirm' })
}

/** The browser's back button, answered once its popstate has run. */
async function goBack() {
  const moved = new Promise((resolve) => addEventListener('popstate', resolve, { once: true }))
  act(() => history.back())
  await act(() => moved)
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('the browser’s back button in a money flow', () => {
  it('goes from the review back to the form, as it was', async () => {
    const { user } = renderInBrowser()
    await toReview(user)
    expect(location.search).toContain('step=review')
    await goBack()
    expect(await screen.findByRole('heading', { name: 'Exchange' })).toHaveFocus()
    expect(location.pathname + location.search).toBe(`/exchange?wallet=${WALLET_UUID}`)
    expect(screen.getByRole('textbox', { name: 'You pay (USDT)' })).toHaveValue('100')
  })

  it('leaves the flow from the result: the spent review is not in the history', async () => {
    const { api, user } = renderInBrowser()
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: 'Exchange placed' })
    await waitFor(() => expect(location.search).toContain(`order=${anOrder().id}`))
    expect(location.search).not.toContain('step=')

    await goBack()
    expect(location.pathname).toBe('/')
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toHaveLength(1)
  })
})
