import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { anOrder, aPage } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import OrderPage from './order-page.tsx'

const ID = anOrder().id

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
  sessionStorage.clear()
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
