import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RateList } from '../../../contract/rates.ts'
import { aBalance, aWallet } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { rateKeys, walletKeys } from './queries.ts'
import { TotalBalance } from './total-balance.tsx'

const AS_OF = '2026-01-05T12:00:00.000Z'

const page = (data: unknown[]) => ({
  data,
  total: data.length,
  limit: 100,
  offset: 0,
  is_last_page: true,
})

const WALLETS = page([
  aWallet({
    balances: [
      aBalance({ currency: 'BTC', chain: 'bitcoin', decimals: 8, available: '0.5' }),
      aBalance({ currency: 'USDT', chain: 'tron', decimals: 6, available: '0.1' }),
      aBalance({ currency: 'USDT', chain: 'ethereum', decimals: 6, available: '0.2' }),
      aBalance({ currency: 'DOGE', chain: 'solana', decimals: 8, available: '3' }),
    ],
  }),
])

/** What the server answers for base=USD, the one base the app asks in: the display currencies priced too. */
const RATES: RateList = {
  base: 'USD',
  as_of: AS_OF,
  rates: [
    { code: 'BTC', rate: '97342.17' },
    { code: 'USDT', rate: '1.00' },
    { code: 'USD', rate: '1.00' },
    { code: 'EUR', rate: '1.25' },
    { code: 'GBP', rate: '1.60' },
  ],
}

function renderTotal(routes: Record<string, Route>, language: 'en' | 'ru' = 'en') {
  const api = mockApi(routes)
  return { api, ...renderApp(<TotalBalance />, { language }) }
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
})

describe('the total balance on the home screen', () => {
  it('converts every wallet at the server rates, exactly, and says how fresh they are', async () => {
    localStorage.setItem('displayCurrency', 'USD')
    const { api } = renderTotal({
      'GET /wallets': { body: WALLETS },
      'GET /rates': { body: RATES },
    })
    expect(screen.getByRole('status', { name: 'Loading the total…' })).toBeInTheDocument()
    // 0.5 × 97342.17 + 0.3 × 1 = 48671.385 → a tie, to the even cent.
    expect(await screen.findByTestId('total-balance')).toHaveTextContent('≈ $48,671.38')
    expect(screen.getByText(/^Rates as of Jan 5, 2026/)).toBeInTheDocument()
    expect(screen.getByTestId('total-unpriced')).toHaveTextContent('Not included, no rate: DOGE')
    expect(api.to('GET /rates')[0]?.query.get('base')).toBe('USD')
  })

  it('switches the display currency without asking again: the one answer is worked out in it, and the choice kept', async () => {
    localStorage.setItem('displayCurrency', 'USD')
    const { api, user } = renderTotal({
      'GET /wallets': { body: WALLETS },
      'GET /rates': { body: RATES },
    })
    await screen.findByText('≈ $48,671.38')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Display currency' }), 'EUR')
    // 48671.385 USD ÷ 1.25 USD a euro = 38937.108 → €38,937.11, rounded once.
    expect(await screen.findByTestId('total-balance')).toHaveTextContent('≈ €38,937.11')
    expect(localStorage.getItem('displayCurrency')).toBe('EUR')
    expect(api.to('GET /rates').map((call) => call.query.get('base'))).toEqual(['USD'])
  })

  it('without a choice of their own, a person sees the tenant’s default display currency, from the same one answer', async () => {
    const { api } = renderTotal({
      'GET /wallets': { body: WALLETS },
      'GET /tenants/config': { body: { default_display_currency: 'GBP' } },
      'GET /rates': { body: RATES },
    })
    await vi.waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Display currency' })).toHaveValue('GBP'),
    )
    // 48671.385 ÷ 1.60 = 30419.615625 → £30,419.62.
    expect(await screen.findByTestId('total-balance')).toHaveTextContent('≈ £30,419.62')
    expect(api.to('GET /rates').map((call) => call.query.get('base'))).toEqual(['USD'])
  })

  it('says the total is unavailable when the rates do not price the display currency', async () => {
    localStorage.setItem('displayCurrency', 'GBP')
    renderTotal({
      'GET /wallets': { body: WALLETS },
      'GET /rates': {
        body: { ...RATES, rates: RATES.rates.filter((rate) => rate.code !== 'GBP') },
      },
    })
    expect(
      await screen.findByText('The total is unavailable: the rates could not be loaded.'),
    ).toBeInTheDocument()
  })

  it('offline, totals the stored wallets at the stored rates without asking the server', async () => {
    localStorage.setItem('displayCurrency', 'GBP')
    act(() => onlineManager.setOnline(false))
    const { api, queryClient } = renderTotal({}, 'ru')
    const stored = Date.parse(AS_OF)
    act(() => {
      queryClient.setQueryData(walletKeys.list(), WALLETS, { updatedAt: stored })
      queryClient.setQueryData(rateKeys.list(), RATES, { updatedAt: stored })
    })
    // 48671.385 ÷ 1.60 = 30419.615625, in pounds (stored in USD), the Russian way.
    expect(await screen.findByTestId('total-balance')).toHaveTextContent('≈ 30 419,62 £')
    expect(screen.getByText(/^Курсы на/)).toBeInTheDocument()
    expect(api.calls).toEqual([])
  })

  it('offline with nothing stored, says it will load once online', async () => {
    localStorage.setItem('displayCurrency', 'USD')
    act(() => onlineManager.setOnline(false))
    renderTotal({})
    expect(await screen.findByRole('status')).toHaveTextContent(/connection|online/i)
  })

  it('says the total is unavailable when the rates cannot be read', async () => {
    localStorage.setItem('displayCurrency', 'USD')
    renderTotal({
      'GET /wallets': { body: WALLETS },
      'GET /rates': problem(502, 'RATES_UNAVAILABLE'),
    })
    expect(
      await screen.findByText('The total is unavailable: the rates could not be loaded.'),
    ).toBeInTheDocument()
    expect(screen.queryByTestId('total-balance')).toBeNull()
  })
})
