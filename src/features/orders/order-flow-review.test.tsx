import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Order } from '../../../contract/orders.ts'
import { anOrder, aPage, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import {
  afterFlowTest,
  amountField,
  renderExchange,
  toReview,
  WALLET,
} from './exchange-fixture.tsx'
import OrdersPage from './orders-page.tsx'

// The review step: confirming once, retrying a lost answer with the same request_id, a reload.

afterEach(afterFlowTest)

describe('review and confirm', () => {
  it('shows everything that will happen and places one order on a double tap', async () => {
    let answer: (order: Order) => void = () => {}
    const { api, user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': () =>
        new Promise((resolve) => {
          answer = (order) => resolve({ status: 201, body: order })
        }),
    })
    await toReview(user)
    expect(
      screen.getByText(
        'You exchange at this fixed rate, straight away. The new currency lands in your wallet.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByText('To').nextSibling).toHaveTextContent('Personal wallet')
    expect(screen.getByText('Total charged').nextSibling).toHaveTextContent('101.5 USDT')

    const confirm = screen.getByRole('button', { name: 'Confirm' })
    await user.dblClick(confirm)
    await user.click(confirm)
    expect(screen.getByRole('button', { name: 'Confirming…' })).toBeDisabled()
    act(() => answer(anOrder()))

    expect(await screen.findByRole('heading', { name: 'Exchange placed' })).toHaveFocus()
    const posts = api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')
    expect(posts).toHaveLength(1)
    expect(posts[0]!.body).toEqual({
      quote_id: expect.any(String),
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
  })

  it('retries a confirmation whose answer was lost with the same request_id', async () => {
    let attempts = 0
    const { api, user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': () => {
        attempts += 1
        if (attempts === 1) throw new TypeError('Failed to fetch')
        return { status: 201, body: anOrder(), headers: { 'Idempotent-Replayed': 'true' } }
      },
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No connection to the server. Check your internet and try again. We cannot tell yet whether the order went through.',
    )
    // No way back to a new price (and a new request_id) while the outcome is unknown.
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    expect(screen.getByRole('link', { name: 'See your orders' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await screen.findByRole('heading', { name: 'Exchange placed' })

    const [first, second] = api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')
    expect(second!.body).toEqual(first!.body)
  })

  it('after a lost answer, still retries the same order once the price has run out', async () => {
    let attempts = 0
    const { api, user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': () => {
        attempts += 1
        if (attempts === 1) return problem(503, 'UNAVAILABLE')
        return { status: 201, body: anOrder() }
      },
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('alert')
    vi.setSystemTime(Date.now() + 60_000)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    // Not "Get a new price": that could place a second order if the first went through.
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await screen.findByRole('heading', { name: 'Exchange placed' })
    const [first, second] = api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')
    expect(second!.body).toEqual(first!.body)
  })

  it('never swaps a confirmation on its way for a new price', async () => {
    const { api, user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': () => new Promise(() => {}),
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    vi.setSystemTime(Date.now() + 60_000)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(screen.getByRole('button', { name: 'Confirming…' })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Get a new price' })).toBeNull()
    expect(api.to('GET /orders/calc')).toHaveLength(1)
  })

  it('asks for a fresh price once the quote expires on screen', async () => {
    const { api, user } = renderExchange()
    await toReview(user)
    expect(screen.getByText(/^This price holds for \d+ s\.$/)).toBeInTheDocument()
    vi.setSystemTime(Date.now() + 30_000)

    expect(
      await screen.findByText(
        'The price has expired. Get a new one to continue.',
        {},
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Get a new price' }))
    expect(
      await screen.findByText('This is a new price. Check it before you confirm.'),
    ).toBeInTheDocument()
    expect(api.to('GET /orders/calc')).toHaveLength(2)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: 'Exchange placed' })
  })

  it('confirms a refreshed price under a new request_id', async () => {
    let attempts = 0
    const { api, user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': () => {
        attempts += 1
        return attempts === 1 ? problem(422, 'QUOTE_EXPIRED') : { status: 201, body: anOrder() }
      },
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await user.click(await screen.findByRole('button', { name: 'Get a new price' }))
    await user.click(await screen.findByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: 'Exchange placed' })

    const [first, second] = api
      .to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')
      .map((call) => call.body as { quote_id: string; request_id: string })
    const quoteIds = api.to('GET /orders/calc').length
    expect(quoteIds).toBe(2)
    expect(second!.quote_id).not.toBe(first!.quote_id)
    expect(second!.request_id).not.toBe(first!.request_id)
  })

  it.each([
    [
      problem(422, 'INSUFFICIENT_FUNDS'),
      'There is not enough money in the wallet for this, fees included.',
      'Change the details',
    ],
    [
      problem(422, 'QUOTE_EXPIRED'),
      'The price expired before the order reached us. Nothing was charged.',
      'Get a new price',
    ],
    [
      problem(409, 'QUOTE_USED'),
      'This price has already been used for an order.',
      'Get a new price',
    ],
    [
      problem(409, 'IDEMPOTENCY_CONFLICT'),
      'This confirmation was already used with other details',
      'Get a new price',
    ],
  ])('words a refusal and offers the one way on: %#', async (reply, words, next) => {
    const { user } = renderExchange({ 'POST /orders/EXCHANGE_CRYPTO_INTERNAL': reply })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(words)
    expect(alert).not.toHaveTextContent('English detail')
    expect(screen.getByRole('button', { name: next })).toBeEnabled()
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()
  })

  it('sends the person back to the form to change an amount the wallet cannot pay', async () => {
    const { user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': problem(422, 'INSUFFICIENT_FUNDS'),
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await user.click(await screen.findByRole('button', { name: 'Change the details' }))
    expect(await screen.findByRole('heading', { name: 'Exchange' })).toHaveFocus()
    expect(amountField()).toHaveValue('100')
  })

  it('links to the history when the quote already placed an order', async () => {
    const { user } = renderExchange({
      'POST /orders/EXCHANGE_CRYPTO_INTERNAL': problem(409, 'QUOTE_USED'),
    })
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByRole('link', { name: 'See your orders' })).toHaveAttribute(
      'href',
      `/orders?wallet=${WALLET_UUID}`,
    )
  })
})

describe('a lost answer, then a reload', () => {
  const POST = 'POST /orders/EXCHANGE_CRYPTO_INTERNAL'
  const placed = { status: 201, body: anOrder(), headers: { 'Idempotent-Replayed': 'true' } }

  /** Confirms on a first render of the page; then the tab reloads: a new app, the same tab. */
  async function confirmThenReload(routes: Record<string, Route>) {
    const first = renderExchange(routes)
    await toReview(first.user)
    await first.user.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(first.api.to(POST)).toHaveLength(1))
    const sent = first.api.to(POST)[0]!.body
    cleanup()
    return { sent, ...renderExchange(routes) }
  }

  it('sends the same confirmation again instead of letting a second order be placed', async () => {
    let attempts = 0
    const { sent, api, history } = await confirmThenReload({
      [POST]: () => {
        attempts += 1
        if (attempts === 1) throw new TypeError('Failed to fetch')
        return placed
      },
    })
    // No form to fill in again: the open confirmation is finished first, with the same key.
    expect(await screen.findByRole('heading', { name: 'Exchange placed' })).toBeInTheDocument()
    expect(api.to(POST)).toHaveLength(1)
    expect(api.to(POST)[0]!.body).toEqual(sent)
    expect(sent).toEqual({ quote_id: expect.any(String), request_id: expect.any(String) })
    expect(api.to('GET /orders/calc')).toEqual([])
    // The result is in the address, so another reload shows it again.
    expect(history.at(-1)).toContain(`order=${anOrder().id}`)
    expect(sessionStorage.length).toBe(0)
  })

  it('does the same when the app was killed while confirming', async () => {
    let attempts = 0
    const { sent, api } = await confirmThenReload({
      [POST]: () => {
        attempts += 1
        return attempts === 1 ? new Promise(() => {}) : placed
      },
    })
    await screen.findByRole('heading', { name: 'Exchange placed' })
    expect(api.to(POST)[0]!.body).toEqual(sent)
  })

  it('says nothing was placed when the server refuses the old confirmation, and opens the form', async () => {
    let attempts = 0
    const { api } = await confirmThenReload({
      [POST]: () => {
        attempts += 1
        if (attempts === 1) throw new TypeError('Failed to fetch')
        return problem(422, 'QUOTE_EXPIRED')
      },
    })
    expect(
      await screen.findByText('Your last order was not placed, and nothing was charged.'),
    ).toBeInTheDocument()
    expect(await screen.findByRole('textbox', { name: 'You pay (USDT)' })).toBeInTheDocument()
    expect(api.to(POST)).toHaveLength(1)
    expect(sessionStorage.length).toBe(0)
  })

  it('keeps asking while the answer is still lost, and shows no form meanwhile', async () => {
    let attempts = 0
    const { user, api } = await confirmThenReload({
      [POST]: () => {
        attempts += 1
        if (attempts <= 2) throw new TypeError('Failed to fetch')
        return placed
      },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We still cannot tell whether your last order went through.',
    )
    expect(screen.queryByRole('textbox', { name: 'You pay (USDT)' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await screen.findByRole('heading', { name: 'Exchange placed' })
    const [first, second] = api.to(POST)
    expect(second!.body).toEqual(first!.body)
  })

  it('forgets a confirmation the server refused at once: a reload opens the form', async () => {
    const { api } = await confirmThenReload({ [POST]: problem(422, 'INSUFFICIENT_FUNDS') })
    expect(await screen.findByRole('textbox', { name: 'You pay (USDT)' })).toBeInTheDocument()
    expect(api.to(POST)).toEqual([])
  })

  it('is finished from the order history too', async () => {
    let attempts = 0
    const routes: Record<string, Route> = {
      [POST]: () => {
        attempts += 1
        if (attempts === 1) throw new TypeError('Failed to fetch')
        return placed
      },
    }
    const first = renderExchange(routes)
    await toReview(first.user)
    await first.user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('alert')
    const sent = first.api.to(POST)[0]!.body
    cleanup()

    const api = mockApi({
      'GET /wallets': { body: aPage([WALLET]) },
      'GET /orders': { body: aPage([anOrder()]) },
      ...routes,
    })
    renderApp(<OrdersPage />, { path: '/orders' })
    expect(await screen.findByText('Your last order went through.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'View the order' })).toHaveAttribute(
      'href',
      `/orders/${anOrder().id}`,
    )
    expect(api.to(POST)[0]!.body).toEqual(sent)
  })
})
