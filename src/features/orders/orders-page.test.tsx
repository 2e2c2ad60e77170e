import { onlineManager, QueryClient } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { anOrder, aPage, aQuote, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { persistable } from '../../storage/query-persister.ts'
import OrderPage from './order-page.tsx'
import OrdersPage from './orders-page.tsx'
import { ordersQuery, quoteQuery } from './queries.ts'

const ID = anOrder().id
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

describe('an order', () => {
  function renderOrder(order: Order, routes: Record<string, Route> = {}) {
    const api = mockApi({ [`GET /orders/${ID}`]: { body: order }, ...routes })
    return { api, ...renderApp(<OrderPage id={ID} />, { path: `/orders/${ID}` }) }
  }

  it('shows its status timeline as an ordered list, the current step marked, the rest ahead', async () => {
    renderOrder(
      anOrder({
        status: 'PENDING',
        timeline: [
          { status: 'NEW', code: 'FUNDS_HELD', at: '2026-01-05T10:00:00Z', note: null },
          {
            status: 'PENDING',
            code: 'BROADCAST',
            at: '2026-01-05T10:00:05Z',
            note: 'Broadcast to the network',
          },
        ],
      }),
    )
    const timeline = await screen.findByRole('list', { name: 'Order progress' })
    expect(timeline.tagName).toBe('OL')
    const steps = within(timeline).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual([
      expect.stringContaining('Accepted'),
      expect.stringContaining('In progress'),
      expect.stringContaining('CompleteNext'),
    ])
    expect(steps[1]).toHaveAttribute('aria-current', 'step')
    // Worded from the event's code; the server's English note is never shown.
    expect(steps[1]).toHaveTextContent('Sent to the network')
    expect(timeline).not.toHaveTextContent('Broadcast to the network')
    expect(steps[2]).not.toHaveAttribute('aria-current')
  })

  it('sets a failure apart, says why, and shows the hash to copy', async () => {
    const hash = '0x3a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdef'
    renderOrder(
      anOrder({
        order_type: 'WITHDRAWAL_CRYPTO',
        status: 'FAILED',
        failure_code: 'ADDRESS_REJECTED',
        tx_hash: hash,
        timeline: [
          { status: 'NEW', code: 'FUNDS_HELD', at: '2026-01-05T10:00:00Z', note: null },
          {
            status: 'FAILED',
            code: 'ADDRESS_REJECTED',
            at: '2026-01-05T10:00:05Z',
            note: 'Address rejected by the network',
          },
        ],
      }),
    )
    await screen.findByRole('heading', { name: 'Crypto transfer' })
    const status = screen.getByText(
      'Failed · The network refused the address. The money is back in your wallet.',
    )
    expect(status).toHaveAttribute('role', 'status')
    expect(status).toHaveClass('order-status-failure')
    const steps = within(screen.getByRole('list', { name: 'Order progress' })).getAllByRole(
      'listitem',
    )
    // Final: nothing ahead of it.
    expect(steps).toHaveLength(2)
    expect(steps[1]).toHaveClass('order-step-failure')
    expect(screen.getByText(hash)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Copy transaction hash' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Cancel the order' })).toBeNull()
  })

  it('cancels only after the person confirms', async () => {
    const canceled = anOrder({
      status: 'CANCELED',
      timeline: [
        { status: 'NEW', code: 'FUNDS_HELD', at: '2026-01-05T10:00:00Z', note: null },
        { status: 'CANCELED', code: 'CANCELED', at: '2026-01-05T10:01:00Z', note: null },
      ],
    })
    const { api, user } = renderOrder(anOrder(), {
      [`POST /orders/${ID}/cancel`]: { body: canceled },
    })
    await user.click(await screen.findByRole('button', { name: 'Cancel the order' }))
    expect(screen.getByRole('heading', { name: 'Cancel this order?' })).toHaveFocus()
    expect(
      screen.getByText(/^The 101\.5\sUSDT set aside for it goes back to your wallet\.$/),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Keep the order' }))
    expect(api.to(`POST /orders/${ID}/cancel`)).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Cancel the order' }))
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the order' }))
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Canceled'))
    expect(api.to(`POST /orders/${ID}/cancel`)).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Cancel the order' })).toBeNull()
    // The cancel section is gone: the focus is on the order, not lost to the page.
    expect(screen.getByRole('heading', { level: 1, name: 'Exchange' })).toHaveFocus()
  })

  it('says so when the order moved on before the cancel arrived', async () => {
    const { user } = renderOrder(anOrder(), {
      [`POST /orders/${ID}/cancel`]: problem(409, 'ORDER_NOT_CANCELLABLE'),
    })
    await user.click(await screen.findByRole('button', { name: 'Cancel the order' }))
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the order' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This order can no longer be canceled: it has already moved on.',
    )
  })

  it('keeps showing a deposit’s bank details while it waits for the transfer', async () => {
    renderOrder(
      anOrder({
        order_type: 'DEPOSIT_FIAT_SEPA',
        deposit_instructions: {
          beneficiary: 'Finplatform Payments GmbH',
          iban: 'DE02120300000000202051',
          account_number: null,
          bic: 'BYLADEM1001',
          bank_name: 'Sandbox Bank AG',
          bank_address: 'Berlin',
          reference: 'FP-7K3M9Q',
          amount: '251.00',
          currency: 'EUR',
        },
      }),
    )
    const bank = await screen.findByRole('region', { name: 'Send your bank transfer to' })
    expect(within(bank).getByText('FP-7K3M9Q')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the order' }))
    expect(
      screen.getByText('Its bank details stop working: do not send the transfer.'),
    ).toBeInTheDocument()
  })

  it('shows a crypto address in full, in groups of four, with its network', async () => {
    mockApi({
      [`GET /orders/${ID}`]: {
        body: anOrder({
          order_type: 'WITHDRAWAL_CRYPTO',
          target: {
            ...anOrder().target,
            kind: 'address',
            wallet_uuid: null,
            chain: 'ethereum',
            address: '0x52908400098527886E0F7030069857D2E4169EE7',
            display: '0x5290…9EE7',
          },
        }),
      },
      'GET /chains': {
        body: aPage([
          {
            id: 'ethereum',
            name: 'Ethereum',
            native_currency: 'ETH',
            address_format: 'evm',
            confirmations: 12,
          },
        ]),
      },
    })
    renderApp(<OrderPage id={ID} />, { path: `/orders/${ID}` })
    expect(await screen.findByTestId('target-address')).toHaveTextContent(
      '0x52 9084 0009 8527 886E 0F70 3006 9857 D2E4 169E E7',
    )
    expect(await screen.findByText('Network')).toBeInTheDocument()
    expect(screen.getByText('Network').nextSibling).toHaveTextContent('Ethereum')
    expect(screen.queryByText('0x5290…9EE7')).toBeNull()
  })

  it('speaks Russian on its timeline, whatever the server noted in English', async () => {
    mockApi({
      [`GET /orders/${ID}`]: {
        body: anOrder({
          order_type: 'DEPOSIT_FIAT_SEPA',
          status: 'FAILED',
          timeline: [
            {
              status: 'NEW',
              code: 'PLACED',
              at: '2026-01-05T10:00:00Z',
              note: 'Order placed',
            },
            {
              status: 'PENDING',
              code: 'AWAITING_TRANSFER',
              at: '2026-01-05T10:00:01Z',
              note: 'Awaiting your bank transfer with reference FP-AAAA-BBBB',
            },
            {
              status: 'FAILED',
              code: 'RETURNED_ACCOUNT_CLOSED',
              at: '2026-01-05T10:00:02Z',
              note: 'Returned by the beneficiary’s bank: the account is closed; the held funds were released',
            },
          ],
        }),
      },
    })
    renderApp(<OrderPage id={ID} />, { path: `/orders/${ID}`, language: 'ru' })
    const timeline = await screen.findByRole('list', { name: 'Ход выполнения заявки' })
    const steps = within(timeline).getAllByRole('listitem')
    expect(steps[0]).toHaveTextContent('Заявка создана')
    expect(steps[1]).toHaveTextContent('Ждём ваш банковский перевод')
    expect(steps[2]).toHaveTextContent(
      'Банк получателя вернул перевод: счёт закрыт. Деньги вернулись в кошелёк.',
    )
    expect(timeline).not.toHaveTextContent(/[A-Za-z]{4,}/)
  })

  it('of a completed bank deposit says the money arrived, and shows no bank details to pay again', async () => {
    renderOrder(anOrder({ order_type: 'DEPOSIT_FIAT_SEPA', status: 'COMPLETE' }))
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Your deposit arrived' }),
    ).toBeInTheDocument()
    expect(screen.queryByText(/send your bank transfer/i)).toBeNull()
  })

  it('cannot be canceled offline', async () => {
    renderOrder(anOrder())
    const cancel = await screen.findByRole('button', { name: 'Cancel the order' })
    act(() => onlineManager.setOnline(false))
    expect(cancel).toBeDisabled()
  })
})
