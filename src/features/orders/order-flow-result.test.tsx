import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { anOrder, aPage, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import {
  afterFlowTest,
  amountField,
  DIRECTION,
  renderExchange,
  toReview,
  USDT,
  WALLET,
} from './exchange-fixture.tsx'
import ExchangePage from './exchange-page.tsx'
import { BTC } from './test-fixtures.ts'

// The result step and the steps in the address.

afterEach(afterFlowTest)

describe('the result’s heading', () => {
  it.each([
    ['FAILED', 'The order did not go through'],
    ['ERROR', 'The order did not go through'],
    ['CANCELED', 'The order is canceled'],
    ['NEW', 'Exchange placed'],
    ['PENDING', 'Your exchange is under way'],
    ['COMPLETE', 'Exchange done'],
  ] as const)('of an order %s says %s', async (status, heading) => {
    mockApi({
      'GET /wallets': { body: aPage([WALLET]) },
      'GET /currencies': { body: aPage([USDT, BTC]) },
      [`GET /orders/${anOrder().id}`]: { body: anOrder({ status }) },
    })
    renderApp(<ExchangePage />, {
      path: `/exchange?wallet=${WALLET_UUID}&order=${anOrder().id}`,
    })
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(heading)
  })
})

describe('the steps in the address', () => {
  it('puts the review in the address, and its Back returns to the form as it was', async () => {
    const { user, history } = renderExchange()
    await toReview(user, '120')
    expect(history.at(-1)).toMatch(/[?&]step=review(&|$)/)
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(await screen.findByRole('heading', { name: 'Exchange' })).toHaveFocus()
    expect(history.at(-1)).not.toContain('step=')
    expect(amountField()).toHaveValue('120')
  })

  it('opens the form when a review is reloaded: its price is gone', async () => {
    mockApi({
      'GET /wallets': { body: aPage([WALLET]) },
      'GET /currencies': { body: aPage([USDT, BTC]) },
      'GET /chains': { body: aPage([]) },
      'GET /exchange/': { body: aPage([DIRECTION]) },
    })
    const { history } = renderApp(<ExchangePage />, {
      path: `/exchange?wallet=${WALLET_UUID}&step=review`,
    })
    expect(await screen.findByRole('textbox', { name: 'You pay (USDT)' })).toBeInTheDocument()
    expect(history.at(-1)).toBe(`/exchange?wallet=${WALLET_UUID}`)
  })

  it('shows a placed order’s result from the address alone', async () => {
    const { api } = renderExchange()
    cleanup()
    mockApi({
      'GET /wallets': { body: aPage([WALLET]) },
      'GET /currencies': { body: aPage([USDT, BTC]) },
      [`GET /orders/${anOrder().id}`]: { body: anOrder() },
    })
    renderApp(<ExchangePage />, {
      path: `/exchange?wallet=${WALLET_UUID}&order=${anOrder().id}`,
    })
    expect(await screen.findByRole('heading', { name: 'Exchange placed' })).toHaveFocus()
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toEqual([])
  })
})

describe('the result', () => {
  it('follows the order until it is final, then stops asking', async () => {
    const statuses: Order['status'][] = ['PENDING', 'COMPLETE']
    const { api, user } = renderExchange({
      [`GET /orders/${anOrder().id}`]: () => {
        const status = statuses.shift() ?? 'COMPLETE'
        return {
          body: anOrder({
            status,
            timeline: [
              { status: 'NEW', code: 'FUNDS_HELD', at: '2026-01-05T10:00:00Z', note: null },
              { status: 'PENDING', code: 'FUNDS_HELD', at: '2026-01-05T10:00:01Z', note: null },
              ...(status === 'COMPLETE'
                ? [
                    {
                      status: 'COMPLETE' as const,
                      code: 'EXCHANGED' as const,
                      at: '2026-01-05T10:00:02Z',
                      note: null,
                    },
                  ]
                : []),
            ],
          }),
        }
      },
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: /Exchange placed|Your exchange is under way/ })
    expect(
      // Two real 2 s polls: PENDING, then COMPLETE.
      await screen.findByText('Complete', { selector: '[role=status]' }, { timeout: 10_000 }),
    ).toBeInTheDocument()
    // The headline follows the order: it says the exchange is done once it is.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Exchange done')
    const reads = api.to(`GET /orders/${anOrder().id}`).length
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(api.to(`GET /orders/${anOrder().id}`)).toHaveLength(reads)

    expect(screen.getByRole('link', { name: 'View the order' })).toHaveAttribute(
      'href',
      `/orders/${anOrder().id}`,
    )
  }, 30_000)

  it('goes to the wallet on "Done"', async () => {
    const { user, history } = renderExchange()
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await user.click(await screen.findByRole('button', { name: 'Done' }))
    expect(history.at(-1)).toBe(`/wallets/${WALLET_UUID}`)
  })

  it('offers to repeat a completed exchange every month (issue 32)', async () => {
    const done = anOrder({ status: 'COMPLETE' })
    const { api, user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': { status: 201, body: done },
      [`GET /orders/${done.id}`]: { body: done },
      'POST /schedules': { status: 201, body: {} },
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await user.click(await screen.findByRole('button', { name: 'Repeat this' }))
    await user.click(screen.getByRole('button', { name: 'Set it to repeat' }))
    expect(await screen.findByText('Done: it repeats every month on this day.')).toBeInTheDocument()
    expect(api.to('POST /schedules')[0]!.body).toMatchObject({
      kind: 'exchange',
      template: {
        wallet_uuid: done.wallet_uuid,
        from_uuid: done.from.currency_uuid,
        to_uuid: done.to.currency_uuid,
        amount_from: done.from.amount,
      },
      rrule: 'FREQ=MONTHLY',
    })
  })
})
