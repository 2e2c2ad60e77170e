import { onlineManager, QueryClient } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { anOrder, aPage, aQuote, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { persistable } from '../../storage/query-persister.ts'
import OrdersPage from './orders-page.tsx'
import { ordersQuery, quoteQuery } from './queries.ts'

const _ID = anOrder().id
const orderN = (n: number, overrides: Partial<Order> = {}) =>
  anOrder({ id: `0190b0a4-0000-7000-8000-${String(n).padStart(12, '0')}`, ...overrides })

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('the order history', () => {
  function renderHistory(routes: Record<string, Route> = {}) {
    const api = mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /orders': (call) => {
        const offset = Number(call.query.get('offset'))
        const count = Math.min(20, 25 - offset)
        return {
          body: {
            data: Array.from({ length: count }, (_, i) =>
              orderN(offset + i, { status: 'COMPLETE' }),
            ),
            total: 25,
            limit: 20,
            offset,
            is_last_page: offset + count >= 25,
          },
        }
      },
      ...routes,
    })
    return { api, ...renderApp(<OrdersPage />, { path: `/orders?wallet=${WALLET_UUID}` }) }
  }

  it('lists orders of the wallet and loads more on request', async () => {
    const { api, user } = renderHistory()
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(20))
    const first = within(screen.getAllByTestId('order-row')[0]!)
    expect(first.getByRole('link')).toHaveAttribute('href', `/orders/${orderN(0).id}`)
    expect(first.getByText('Exchange')).toBeInTheDocument()
    expect(first.getByText('Complete')).toBeInTheDocument()
    expect(first.getByText(/^−101\.5\sUSDT$/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Show more' }))
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(25))
    expect(screen.getByText('25 of 25')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
    expect(api.to('GET /orders').map((call) => Object.fromEntries(call.query))).toEqual([
      { wallet_uuid: WALLET_UUID, limit: '20', offset: '0' },
      { wallet_uuid: WALLET_UUID, limit: '20', offset: '20' },
    ])
  })

  it('filters by wallet, status and type', async () => {
    const { api, user } = renderHistory()
    await screen.findAllByTestId('order-row')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Failed')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Crypto transfer')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Wallet' }), 'All wallets')
    await waitFor(() =>
      expect(Object.fromEntries(api.to('GET /orders').at(-1)!.query)).toEqual({
        status: 'FAILED',
        order_type: 'WITHDRAWAL_CRYPTO',
        limit: '20',
        offset: '0',
      }),
    )
  })

  it('keeps the filters in the address, so back from an order finds the list as it was', async () => {
    const { api, user, history } = renderHistory()
    await screen.findAllByTestId('order-row')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Complete')
    // Replaced, not pushed: back leaves the list instead of undoing a filter.
    expect(history).toEqual([`/orders?wallet=${WALLET_UUID}&status=COMPLETE`])
    await waitFor(() => expect(api.to('GET /orders').at(-1)!.query.get('status')).toBe('COMPLETE'))
  })

  it('opens with the filters its address names', async () => {
    const api = mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /orders': { body: aPage([anOrder({ status: 'COMPLETE' })]) },
    })
    renderApp(<OrdersPage />, {
      path: `/orders?wallet=${WALLET_UUID}&status=COMPLETE&type=WITHDRAWAL_CRYPTO`,
    })
    await screen.findAllByTestId('order-row')
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('Complete')
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('Crypto transfer')
    expect(Object.fromEntries(api.to('GET /orders')[0]!.query)).toEqual({
      wallet_uuid: WALLET_UUID,
      status: 'COMPLETE',
      order_type: 'WITHDRAWAL_CRYPTO',
      limit: '20',
      offset: '0',
    })
  })

  it('words where each order goes in Russian, never with the server’s English', async () => {
    const target = anOrder().target
    const rows = [
      orderN(1, {
        order_type: 'DEPOSIT_FIAT_SEPA',
        target: { ...target, kind: 'bank_deposit', display: 'SEPA bank transfer into this wallet' },
      }),
      orderN(2, { target: { ...target, kind: 'wallet', display: 'This wallet' } }),
      orderN(3, {
        target: {
          ...target,
          kind: 'wallet',
          wallet_uuid: '0190b0a4-0000-7000-8000-0000000000a9',
          display: 'Your trading wallet',
        },
      }),
      orderN(4, {
        order_type: 'TRANSFER_CARD_PREPAID',
        to: { ...anOrder().to, currency: 'EUR' },
        target: {
          ...target,
          kind: 'fiat_account',
          fiat_account_id: '0190b0a4-0000-7000-8000-00000000fa01',
          display: 'Travel card · EUR',
        },
      }),
      orderN(5, {
        order_type: 'WITHDRAWAL_FIAT_SEPA',
        target: { ...target, kind: 'counterparty', display: 'Anna Schmidt · DE89 … 3000' },
      }),
    ]
    mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /orders': { body: aPage(rows) },
      [`GET /fiat-accounts/${WALLET_UUID}`]: {
        body: aPage([
          {
            id: '0190b0a4-0000-7000-8000-00000000fa01',
            wallet_uuid: WALLET_UUID,
            program_id: '0190b0a4-0000-7000-8000-00000000ab01',
            program_name: 'Travel card',
            account_last4: '1234',
            sub_account_type: 'prepaid',
            status: 'ACTIVE',
            currency_uuid: '0190b0a4-0000-7000-8000-0000000000c9',
            currency: 'EUR',
            balance: '12.5',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
          },
        ]),
      },
    })
    renderApp(<OrdersPage />, { path: '/orders', language: 'ru' })
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(5))
    const [deposit, own, other, card, person] = screen.getAllByTestId('order-row')
    await waitFor(() =>
      expect(deposit).toHaveTextContent('Кошелёк «Личный», банковским переводом SEPA'),
    )
    expect(own).toHaveTextContent('Кошелёк «Личный»')
    expect(other).toHaveTextContent('Другой кошелёк на платформе')
    await waitFor(() => expect(card).toHaveTextContent('Карточный счёт: Travel card ·· 1234 · EUR'))
    // A counterparty's name and masked number are data, shown as they are.
    expect(person).toHaveTextContent('Anna Schmidt · DE89 … 3000')
    const list = screen.getByRole('list', { name: 'Заявки' })
    for (const english of ['bank transfer into', 'This wallet', 'Your trading wallet']) {
      expect(list).not.toHaveTextContent(english)
    }
  })

  it('says so when nothing matches', async () => {
    renderHistory({ 'GET /orders': { body: aPage([]) } })
    expect(
      await screen.findByText('No orders yet. Sends, exchanges, deposits and top-ups show here.'),
    ).toBeInTheDocument()
  })

  it('stays readable offline; loading more waits for the connection', async () => {
    const { api } = renderHistory()
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(20))
    act(() => onlineManager.setOnline(false))
    expect(screen.getAllByTestId('order-row')).toHaveLength(20)
    const more = screen.getByRole('button', { name: 'Show more' })
    expect(more).toBeDisabled()
    expect(more).toHaveAccessibleDescription('You are offline. This needs a connection.')
    expect(api.to('GET /orders')).toHaveLength(1)
  })

  it('goes to disk; a quote never does', async () => {
    const client = new QueryClient()
    client.setQueryData(ordersQuery({}).queryKey, { pages: [aPage([anOrder()])], pageParams: [0] })
    const quote = quoteQuery({
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      wallet_uuid: WALLET_UUID,
      from_uuid: anOrder().from.currency_uuid,
      amount_from: '1',
    })
    await client.prefetchQuery({
      ...quote,
      gcTime: Number.POSITIVE_INFINITY,
      queryFn: () => aQuote(),
    })
    expect(client.getQueryState(quote.queryKey)?.status).toBe('success')
    const stored = client
      .getQueryCache()
      .getAll()
      .filter((query) => persistable.shouldDehydrateQuery(query))
      .map((query) => query.queryKey[1])
    expect(stored).toEqual(['list'])
  })
})
