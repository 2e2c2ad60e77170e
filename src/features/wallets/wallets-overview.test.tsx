import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aBalance, aWallet } from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { WalletsOverview } from './wallets-overview.tsx'

const page = (data: unknown[]) => ({
  body: { data, total: data.length, limit: 100, offset: 0, is_last_page: true },
})

function renderOverview(routes: Record<string, Route>, language: 'en' | 'ru' = 'en') {
  const api = mockApi(routes)
  return { api, ...renderApp(<WalletsOverview />, { language }) }
}

afterEach(() => {
  // Unmounted first, so coming back online refetches nothing after fetch is real again.
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
})

describe('wallets on the home screen', () => {
  it('shows balances exactly as the decimal strings say, pending only when not zero', async () => {
    renderOverview({
      'GET /wallets': page([
        aWallet({
          balances: [
            aBalance({ available: '0.000000000000000001', pending: '0' }),
            aBalance({
              currency_uuid: 'usdt',
              currency: 'USDT',
              chain: 'tron',
              decimals: 6,
              available: '12345678901234.123456',
              pending: '2.5',
            }),
          ],
        }),
      ]),
    })
    const [eth, usdt] = await screen.findAllByTestId('balance')
    expect(eth).toHaveTextContent('0.000000000000000001 ETH')
    expect(eth).not.toHaveTextContent('pending')
    expect(usdt).toHaveTextContent('12,345,678,901,234.123456 USDT')
    expect(usdt).toHaveTextContent('2.5 USDT pending')
  })

  it('formats amounts the Russian way in Russian', async () => {
    renderOverview(
      {
        'GET /wallets': page([
          aWallet({
            balances: [
              aBalance({ available: '1234.5', decimals: 2, currency: 'EUR', chain: null }),
            ],
          }),
        ]),
      },
      'ru',
    )
    expect(await screen.findByTestId('balance')).toHaveTextContent('1 234,50 €')
    expect(screen.getByRole('heading', { name: 'Кошелёк «Личный»' })).toBeInTheDocument()
  })

  it('says there are no wallets yet', async () => {
    renderOverview({ 'GET /wallets': page([]) })
    expect(
      await screen.findByText('You have no wallets yet. Create one to receive money.'),
    ).toBeInTheDocument()
  })

  it('creates a P2P wallet and lists it at once', async () => {
    const created = aWallet({ uuid: 'new-wallet', type: 'trading', balances: [] })
    let wallets = [aWallet()]
    const { api, user } = renderOverview({
      'GET /wallets': () => page(wallets),
      'POST /wallets': () => {
        wallets = [...wallets, created]
        return { status: 201, body: created }
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Create wallet' }))
    const p2p = screen.getByRole('radio', { name: /^P2P/ })
    expect(p2p).toHaveAttribute('value', 'trading')
    await user.click(p2p)
    await user.click(screen.getByRole('button', { name: 'Create wallet' }))

    expect(await screen.findByRole('status')).toHaveTextContent('Your P2P wallet is ready.')
    expect(api.to('POST /wallets').map((call) => call.body)).toEqual([{ type: 'trading' }])
    expect(screen.getByRole('link', { name: 'P2P wallet' })).toHaveAttribute(
      'href',
      '/wallets/new-wallet',
    )
  })

  it('offers only the wallet types the tenant offers', async () => {
    const { user } = renderOverview({
      'GET /wallets': page([aWallet()]),
      'GET /tenants/config': { body: { wallet_types: ['personal', 'business'] } },
    })
    await user.click(await screen.findByRole('button', { name: 'Create wallet' }))
    const types = screen.getByRole('group', { name: 'Wallet type' })
    await vi.waitFor(() =>
      expect(
        within(types)
          .getAllByRole('radio')
          .map((option) => option.getAttribute('value')),
      ).toEqual(['business', 'personal']),
    )
    expect(screen.queryByText('More types')).toBeNull()
  })

  it('preselects Personal, explains each type in a line, and keeps the rarer under More types', async () => {
    const { user } = renderOverview({ 'GET /wallets': page([aWallet()]) })
    await user.click(await screen.findByRole('button', { name: 'Create wallet' }))
    const personal = screen.getByRole('radio', { name: /^Personal/ })
    expect(personal).toBeChecked()
    expect(personal.closest('label')).toHaveTextContent(
      'Your everyday money: deposit, exchange, cards and payments.',
    )
    const more = screen.getByText('More types').closest('details')!
    expect(more).not.toHaveAttribute('open')
    expect(
      within(more)
        .getAllByRole('radio', { hidden: true })
        .map((option) => option.getAttribute('value')),
    ).toEqual(['escrow', 'merchant', 'exchange', 'staking', 'vault'])
    expect(
      screen
        .getAllByRole('radio')
        .filter((option) => !more.contains(option))
        .map((option) => option.getAttribute('value')),
    ).toEqual(['business', 'personal', 'trading'])
  })

  it('cannot create a wallet offline, and says why', async () => {
    const { api } = renderOverview({ 'GET /wallets': page([aWallet()]) })
    await screen.findByTestId('wallet')
    act(() => onlineManager.setOnline(false))
    const create = screen.getByRole('button', { name: 'Create wallet' })
    expect(create).toBeDisabled()
    expect(create).toHaveAccessibleDescription('You are offline. This needs a connection.')
    expect(api.to('POST /wallets')).toEqual([])
  })
})
