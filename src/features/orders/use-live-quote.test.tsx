import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Quote, QuoteQuery } from '../../../contract/orders.ts'
import { aQuote, BTC_UUID, USDT_UUID, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Reply } from '../../../tests/support/mock-api.ts'
import { MAX_IDLE_REFRESHES, useLiveQuote } from './use-live-quote.ts'

const QUERY: QuoteQuery = {
  order_type: 'EXCHANGE_CRYPTO_INTERNAL',
  wallet_uuid: WALLET_UUID,
  from_uuid: USDT_UUID,
  to_uuid: BTC_UUID,
  amount_from: '100',
}

/** A quote's life on this device: 30 s from the server, less the 2 s margin. */
const LIFETIME_MS = 28_000

/** A fresh quote at the moment it is asked for (fake clock), its price as given. */
const quote = (received = '0.00158'): Reply => ({
  body: aQuote({ to: { ...aQuote().to, amount: received } }),
})

/**
 * Lets the fake clock run, then a little more: an answer is read (the
 * response's body included) a few ticks after it is sent.
 */
const tick = async (ms: number) => {
  await act(() => vi.advanceTimersByTimeAsync(ms))
  await act(() => vi.advanceTimersByTimeAsync(20))
}

function setup(answer: (call: number) => Reply | Promise<Reply>) {
  let count = 0
  const api = mockApi({ 'GET /orders/calc': () => answer(++count) })
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = (props: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{props.children}</QueryClientProvider>
  )
  const hook = renderHook(
    (props: { query: QuoteQuery | undefined }) => useLiveQuote(props.query, true),
    { wrapper, initialProps: { query: QUERY } },
  )
  const calcs = () => api.to('GET /orders/calc').length
  return { api, hook, calcs }
}

let visibility: DocumentVisibilityState = 'visible'
function setVisibility(state: DocumentVisibilityState) {
  visibility = state
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

beforeEach(() => {
  vi.useFakeTimers()
  visibility = 'visible'
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => visibility,
  })
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('the live quote on a timer', () => {
  it('refreshes an expired quote once; a refused refresh drops the price and asks no more', async () => {
    const { hook, calcs } = setup((call) =>
      call === 1
        ? quote()
        : problem(422, 'AMOUNT_TOO_LARGE', {
            errors: [{ field: '/querystring/amount_from', message: 'too much' }],
          }),
    )
    await tick(300)
    expect(calcs()).toBe(1)
    expect(hook.result.current.current).toBe(true)

    await tick(LIFETIME_MS + 1000)
    expect(calcs()).toBe(2)
    // The old price cannot be confirmed any more: it is off the screen, the refusal is on it.
    expect(hook.result.current.current).toBe(false)
    expect(hook.result.current.error).toMatchObject({ code: 'AMOUNT_TOO_LARGE' })

    await tick(120_000)
    expect(calcs()).toBe(2)
  })

  it('backs off on network trouble — 2 s, 5 s, 15 s — then waits for the person', async () => {
    const asked: number[] = []
    const { hook, calcs } = setup((call) => {
      asked.push(Date.now())
      if (call === 1) return quote()
      throw new TypeError('Failed to fetch')
    })
    await tick(300)
    await tick(LIFETIME_MS + 1000)
    await tick(30_000)
    await tick(120_000)
    // One refresh, retried three times with growing pauses, then nothing.
    expect(calcs()).toBe(5)
    const pauses = asked.slice(2).map((at, index) => at - asked[index + 1]!)
    expect(pauses).toEqual([2000, 5000, 15_000])
    expect(hook.result.current.current).toBe(false)
    expect(hook.result.current.error).toBeInstanceOf(TypeError)

    act(() => hook.result.current.refetch())
    await tick(0)
    expect(calcs()).toBe(6)
  })

  it('re-prices nothing while the tab is hidden, and re-prices once it is seen again', async () => {
    const { hook, calcs } = setup(() => quote())
    await tick(300)
    setVisibility('hidden')
    await tick(10 * LIFETIME_MS)
    expect(calcs()).toBe(1)
    expect(hook.result.current.expired).toBe(true)

    setVisibility('visible')
    await tick(0)
    expect(calcs()).toBe(2)
    expect(hook.result.current.expired).toBe(false)
  })

  it('stops after a run of refreshes nobody touched the form for; typing starts it again', async () => {
    const { hook, calcs } = setup(() => quote())
    await tick(300)
    for (let refresh = 1; refresh <= MAX_IDLE_REFRESHES; refresh++) {
      await tick(LIFETIME_MS + 1000)
      expect(calcs()).toBe(1 + refresh)
    }
    await tick(LIFETIME_MS + 1000)
    expect(hook.result.current.stopped).toBe(true)
    await tick(10 * 60_000)
    expect(calcs()).toBe(1 + MAX_IDLE_REFRESHES)

    // The person's own "get a new price".
    act(() => hook.result.current.refetch())
    await tick(0)
    expect(calcs()).toBe(2 + MAX_IDLE_REFRESHES)
    expect(hook.result.current.stopped).toBe(false)

    // Typing is using the form too: its quotes refresh again.
    hook.rerender({ query: { ...QUERY, amount_from: '200' } })
    await tick(300)
    expect(calcs()).toBe(3 + MAX_IDLE_REFRESHES)
    await tick(LIFETIME_MS + 1000)
    expect(calcs()).toBe(4 + MAX_IDLE_REFRESHES)
  })

  it('says a price once: not again at a refresh that keeps it, again when it moves or the person asks', async () => {
    const prices = ['0.00158', '0.00158', '0.00161']
    const { hook } = setup((call) => quote(prices[call - 1] ?? '0.00161'))
    await tick(300)
    const first = hook.result.current.announce
    expect(first?.to.amount).toBe('0.00158')

    await tick(LIFETIME_MS + 1000)
    expect(hook.result.current.quote).not.toBe(first)
    // The same price: the same announcement, so the live region does not speak.
    expect(hook.result.current.announce).toBe(first)

    await tick(LIFETIME_MS + 1000)
    const moved = hook.result.current.announce
    expect(moved?.to.amount).toBe('0.00161')

    hook.rerender({ query: { ...QUERY, amount_from: '200' } })
    expect(hook.result.current.announce).toBeUndefined()
    await tick(300)
    const asked: Quote | undefined = hook.result.current.announce
    expect(asked).toBeDefined()
    expect(asked).not.toBe(moved)
  })
})
