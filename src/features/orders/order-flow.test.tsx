import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Order, Quote } from '../../../contract/orders.ts'
import {
  aCurrency,
  anOrder,
  aPage,
  aQuote,
  BTC_UUID,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { type Call, mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import ExchangePage from './exchange-page.tsx'
import OrdersPage from './orders-page.tsx'
import { BTC, USDT_TO_BTC, USDT_WALLET } from './test-fixtures.ts'

const USDT = aCurrency()
const WALLET = USDT_WALLET
const DIRECTION = USDT_TO_BTC

/** A quote for what was asked: amount_from as typed, fees and BTC worked out like the server. */
function quoteFor(call: Call, overrides: Partial<Quote> = {}): Quote {
  const amount = call.query.get('amount_from') ?? '100'
  const base = aQuote()
  return {
    ...base,
    quote_id: `0190b0a4-0000-7000-8000-${String(quoteCount++).padStart(12, '0')}`,
    from: { ...base.from, amount },
    to: { ...base.to, amount: `0.00${amount.replace('.', '')}` },
    total: `${Number(amount) + 1.5}`,
    ...overrides,
  }
}
let quoteCount = 0

function renderExchange(routes: Record<string, Route> = {}, language: 'en' | 'ru' = 'en') {
  const api = mockApi({
    'GET /wallets': { body: aPage([WALLET]) },
    'GET /currencies': { body: aPage([USDT, BTC]) },
    'GET /chains': { body: aPage([]) },
    'GET /exchange/': { body: aPage([DIRECTION]) },
    'GET /orders/calc': (call) => ({ body: quoteFor(call) }),
    'POST /orders/EXCHANGE_CRYPTO_INTERNAL': { status: 201, body: anOrder() },
    [`GET /orders/${anOrder().id}`]: { body: anOrder() },
    ...routes,
  })
  const path = `/exchange?wallet=${WALLET_UUID}&from=${USDT_UUID}&to=${BTC_UUID}`
  return { api, ...renderApp(<ExchangePage />, { path, language }) }
}

const amountField = () => screen.getByRole('textbox', { name: 'You pay (USDT)' })
const reviewButton = () => screen.getByRole('button', { name: 'Review' })

/** Types an amount and waits for its quote, then opens the review. */
async function toReview(user: ReturnType<typeof renderExchange>['user'], amount = '100') {
  await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), amount)
  await waitFor(() => expect(reviewButton()).toBeEnabled())
  await user.click(reviewButton())
  return screen.findByRole('heading', { name: 'Check and confirm' })
}

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.useRealTimers()
  vi.unstubAllGlobals()
  sessionStorage.clear()
  vi.restoreAllMocks()
})

describe('the live quote', () => {
  it('waits for typing to settle, then asks once for what was typed', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '250')
    await screen.findByText('0.0025 BTC')
    const calcs = api.to('GET /orders/calc')
    expect(calcs).toHaveLength(1)
    expect(Object.fromEntries(calcs[0]!.query)).toEqual({
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      wallet_uuid: WALLET_UUID,
      from_uuid: USDT_UUID,
      to_uuid: BTC_UUID,
      amount_from: '250',
    })
    // "You pay / you receive", each fee on its own line, the total and the rate.
    const price = screen.getByRole('region', { name: 'Price' })
    expect(within(price).getByText('You pay').nextSibling).toHaveTextContent('250 USDT')
    expect(within(price).getByText('Fee').nextSibling).toHaveTextContent('1 USDT')
    expect(within(price).getByText('Fee (0.5 %)').nextSibling).toHaveTextContent('0.5 USDT')
    expect(within(price).getByText('Total charged').nextSibling).toHaveTextContent('251.5 USDT')
    expect(within(price).getByText('Rate').nextSibling).toHaveTextContent('1 BTC = 63,291.139 USDT')
    expect(within(price).getByText('You receive').nextSibling).toHaveTextContent('0.0025 BTC')
    expect(screen.getByRole('textbox', { name: 'You receive (BTC)' })).toHaveValue('0.00250')
    expect(screen.getByText(/^Price fixed for \d+ s$/)).toBeInTheDocument()
  })

  it('aborts the calc still on its way when the amount changes', async () => {
    const { api, user } = renderExchange({
      'GET /orders/calc': (call) =>
        call.query.get('amount_from') === '1'
          ? new Promise(() => {}) // never answers: only an abort ends it
          : { body: quoteFor(call) },
    })
    const field = await screen.findByRole('textbox', { name: 'You pay (USDT)' })
    await user.type(field, '1')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))
    await user.type(field, '5')
    await screen.findByText('0.0015 BTC')

    const signals = api.fetch.mock.calls
      .filter(([input]) => String(input).includes('/orders/calc'))
      .map(([, init]) => init?.signal)
    expect(signals).toHaveLength(2)
    expect(signals[0]?.aborted).toBe(true)
    expect(signals[1]?.aborted).toBe(false)
  })

  it('asks for what must arrive when the other side is typed', async () => {
    const { api, user } = renderExchange({
      'GET /orders/calc': (call) => ({
        body: quoteFor(call, {
          from: { ...aQuote().from, amount: '63.291139' },
          to: { ...aQuote().to, amount: call.query.get('amount_to')! },
        }),
      }),
    })
    await user.type(await screen.findByRole('textbox', { name: 'You receive (BTC)' }), '0.001')
    await waitFor(() => expect(amountField()).toHaveValue('63.291139'))
    const calc = api.to('GET /orders/calc')[0]!
    expect(calc.query.get('amount_to')).toBe('0.001')
    expect(calc.query.has('amount_from')).toBe(false)
  })

  it('gets a new quote by itself when the one on screen expires', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '100')
    await screen.findByText(/^Price fixed for \d+ s$/)
    expect(api.to('GET /orders/calc')).toHaveLength(1)

    vi.setSystemTime(Date.now() + 30_000)
    // The countdown notices at its next real 1 s tick, then asks again: room for a busy machine.
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(2), { timeout: 5_000 })
    await waitFor(() => expect(reviewButton()).toBeEnabled())
  })

  it('says why there is no price on the amount: below the minimum, and which it is', async () => {
    const { api, user } = renderExchange({
      'GET /orders/calc': problem(422, 'AMOUNT_TOO_SMALL', {
        errors: [{ field: '/querystring/amount_from', message: 'below the minimum' }],
        limit: { amount: '10', currency: 'USDT' },
      }),
    })
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '1')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^The minimum for this transfer is 10\sUSDT\.$/,
    )
    await waitFor(() => expect(amountField()).toHaveAttribute('aria-invalid', 'true'))
    expect(amountField()).toHaveAccessibleDescription(
      expect.stringMatching(/The minimum for this transfer is 10\sUSDT\./),
    )
    expect(reviewButton()).toBeDisabled()
    // Asking again cannot change the minimum: nothing offers to.
    expect(screen.queryByRole('button', { name: 'Get the price again' })).toBeNull()
    expect(api.to('GET /orders/calc')).toHaveLength(1)
  })

  it('refuses an English decimal comma instead of reading "0,001" as 1', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You receive (BTC)' }), '0,001')
    const field = screen.getByRole('textbox', { name: 'You receive (BTC)' })
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('Use a dot for decimals, like 0.001.'),
    )
    await user.clear(field)
    await user.type(field, '1,234')
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('“1,234” can be read two ways. Write 1.234 for a fraction or 1234'),
    )
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(api.to('GET /orders/calc')).toEqual([])
  })

  it('refuses more than the wallet has, fees included, before anything is sent', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '499')
    await screen.findByText('0.00499 BTC')
    expect(amountField()).toHaveAccessibleDescription(
      'Available: 500\u00a0USDT That is more than you have, fees included.',
    )
    expect(reviewButton()).toBeDisabled()
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toEqual([])
  })

  it('says “more than you have” for more than the wallet holds, not the price’s maximum it also crosses', async () => {
    const { user } = renderExchange({
      'GET /orders/calc': {
        status: 422,
        body: {
          type: 'about:blank',
          title: 'Amount too large',
          status: 422,
          code: 'AMOUNT_TOO_LARGE',
          detail: 'At most 100000 USDT.',
          limit: { amount: '100000', currency: 'USDT' },
        },
      },
    })
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '250000')
    await waitFor(() =>
      expect(amountField()).toHaveAccessibleDescription(
        'Available: 500\u00a0USDT That is more than you have, fees included.',
      ),
    )
    expect(reviewButton()).toBeDisabled()
  })

  it('checks the decimals of the currency typed in', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '1.1234567')
    expect(amountField()).toHaveAccessibleDescription(
      expect.stringContaining('USDT has at most 6 decimal places.'),
    )
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(api.to('GET /orders/calc')).toEqual([])
  })
})

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

describe('offline', () => {
  it('cannot review or confirm, and says why', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '100')
    await waitFor(() => expect(reviewButton()).toBeEnabled())
    await user.click(reviewButton())
    await screen.findByRole('heading', { name: 'Check and confirm' })

    act(() => onlineManager.setOnline(false))
    const confirm = screen.getByRole('button', { name: 'Confirm' })
    expect(confirm).toBeDisabled()
    expect(confirm).toHaveAccessibleDescription('You are offline. This needs a connection.')
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(reviewButton()).toBeDisabled()
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toEqual([])
  })

  it('waits for the connection instead of quoting', async () => {
    const { api, user } = renderExchange()
    const field = await screen.findByRole('textbox', { name: 'You pay (USDT)' })
    act(() => onlineManager.setOnline(false))
    await user.type(field, '100')
    expect(
      await screen.findByText(
        'You are offline. Prices need a connection; this one loads when it is back.',
      ),
    ).toBeInTheDocument()
    expect(api.to('GET /orders/calc')).toEqual([])
  })
})

describe('in Russian', () => {
  it('reads a decimal comma and speaks the flow', async () => {
    const { api, user } = renderExchange({}, 'ru')
    await user.type(await screen.findByRole('textbox', { name: 'Вы отдаёте (USDT)' }), '12,5')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))
    expect(api.to('GET /orders/calc')[0]!.query.get('amount_from')).toBe('12.5')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Проверить' })).toBeEnabled())
    expect(screen.getByText('Всего спишем')).toBeInTheDocument()
  })
})

describe('the exchange’s currency picker', () => {
  it('lists what the wallet holds, the rest behind “Show all”', async () => {
    const ETH = aCurrency({
      uuid: '0190b0a4-0000-7000-8000-0000000000e1',
      code: 'ETH',
      name: 'Ether',
      type: 'native',
      decimals: 18,
      chain: 'ethereum',
    })
    const { user } = renderExchange({ 'GET /currencies': { body: aPage([BTC, ETH, USDT]) } })
    const from = await screen.findByRole('combobox', { name: 'From' })
    const codes = () =>
      within(from)
        .getAllByRole('option')
        .map((option) => option.textContent?.split(' ')[0])
    expect(codes()).toEqual(['USDT'])
    const showAll = screen.getByRole('button', { name: 'Show all (2 more)' })
    expect(showAll).toHaveAttribute('aria-expanded', 'false')
    await user.click(showAll)
    // Held first, then the rest.
    expect(codes()).toEqual(['USDT', 'BTC', 'ETH'])
    await user.click(screen.getByRole('button', { name: 'Show only what you hold' }))
    expect(codes()).toEqual(['USDT'])
  })
})

describe('the exchange’s amount', () => {
  it('offers “Max”: the most the wallet pays for with the fee on top, quoted at once', async () => {
    const { api, user } = renderExchange()
    await user.click(await screen.findByRole('button', { name: 'Max: 496.517411\u00a0USDT' }))
    expect(amountField()).toHaveValue('496.517411')
    await waitFor(() =>
      expect(api.to('GET /orders/calc').at(-1)?.query.get('amount_from')).toBe('496.517411'),
    )
  })

  it('reads its limits rounded to what people read: the minimum up, the maximum down', async () => {
    renderExchange({
      'GET /exchange/': {
        body: aPage([{ ...DIRECTION, min_amount: '5.000836', max_amount: '100016.702789' }]),
      },
    })
    expect(await screen.findByText(/From 5\.01 USDT to 100,016\.7 USDT/)).toBeInTheDocument()
  })
})
