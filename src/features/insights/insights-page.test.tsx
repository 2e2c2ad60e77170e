import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SpendingInsights } from '../../../contract/insights.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { setAmountsHidden } from '../../i18n/hidden-amounts.ts'
import InsightsPage from './insights-page.tsx'

const spending = (group: SpendingInsights['group'], groups: SpendingInsights['groups']) => ({
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-04-01T00:00:00.000Z',
  group,
  currency: 'EUR',
  spending: '37.50',
  income: '100.00',
  previous_spending: '50.00',
  previous_income: '0.00',
  groups,
  rate_basis: 'current',
  rates_as_of: '2026-03-31T10:00:00.000Z',
})

const group = (key: string, amount: string, count = 1) => ({
  key,
  spending: amount,
  income: '0.00',
  count,
  previous_spending: '0.00',
  change_percent: null,
})

describe('the Insights screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    setAmountsHidden(false)
  })

  const api = () =>
    mockApi({
      'GET /insights/spending': (call) => ({
        body:
          call.query.get('group') === 'merchant'
            ? spending('merchant', [group('Edeka', '20.00', 2), group('Café Einstein', '12.50')])
            : call.query.get('group') === 'month'
              ? spending('month', [group('2026-02', '50.00'), group('2026-03', '37.50')])
              : spending('category', [
                  group('groceries', '20.00'),
                  group('restaurants', '12.50'),
                  group('fees', '5.00'),
                ]),
      }),
      'GET /wallets': { body: { data: [], total: 0, limit: 10, offset: 0, is_last_page: true } },
    })

  it('the month’s spending by category in words beside its ring, its change, the top merchants, at today’s rates', async () => {
    const calls = api()
    renderApp(<InsightsPage />, { language: 'ru' })
    expect(await screen.findByTestId('insights-spending')).toHaveTextContent(/^37,50\s€/)
    expect(screen.getByTestId('insights-spending')).toHaveTextContent(/−25,0\s% к прошлому месяцу$/)
    const legend = screen.getAllByRole('list')[0]!
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace(/\s/g, ' ')),
    ).toEqual(['Продукты20,00 €', 'Кафе и рестораны12,50 €', 'Плата за карты5,00 €'])
    expect(await screen.findByText('Edeka')).toBeInTheDocument()
    expect(screen.getByText(/^2\s*платежа$/)).toBeInTheDocument()
    expect(
      screen.getAllByText('Другие валюты пересчитаны по сегодняшнему курсу.'),
    ).not.toHaveLength(0)
    const asked = calls.to('GET /insights/spending').map((call) => call.query.get('group'))
    expect(asked.sort()).toEqual(['category', 'merchant', 'month'])
  })

  it('with amounts hidden, no figure of money shows', async () => {
    api()
    setAmountsHidden(true)
    renderApp(<InsightsPage />)
    expect(await screen.findByTestId('insights-spending')).toHaveTextContent('•••')
    expect(screen.getByTestId('insights-spending').textContent).not.toMatch(/\d/)
  })
})
