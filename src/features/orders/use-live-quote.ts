import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, useSyncExternalStore } from 'react'
import type { Quote, QuoteQuery } from '../../../contract/orders.ts'
import { useSecondsLeft } from '../../ui/countdown.ts'
import { quoteQuery } from './queries.ts'

/** Typing pauses this long before a quote is asked for. */
export const QUOTE_DEBOUNCE_MS = 300
/**
 * A quote counts as expired this long before the server's expiry: a
 * confirmation sent in the last second would arrive too late.
 */
export const QUOTE_MARGIN_MS = 2000
/**
 * Prices refreshed by themselves in a row, with nobody touching the form,
 * before the form stops asking (about five minutes of 30 s quotes): each
 * one is a firm quote stored by the server, for a screen nobody may be reading.
 */
export const MAX_IDLE_REFRESHES = 10

/**
 * When a quote expires on this device's clock. The server's lifetime
 * (expires_at − created_at, both its own clock) is counted from when the
 * answer arrived here, so a device clock that is off by minutes still counts
 * the 30 s right — comparing expires_at with Date.now() would not.
 */
export const localExpiry = (quote: Quote, receivedAt: number) =>
  receivedAt + Date.parse(quote.expires_at) - Date.parse(quote.created_at) - QUOTE_MARGIN_MS

/** `value`, once it has stopped changing for `ms`. Compared by content, so a new object with the same fields is no change. */
function useSettled<T>(value: T, ms: number): T {
  const key = JSON.stringify(value)
  const [settled, setSettled] = useState({ key, value })
  // biome-ignore lint/correctness/useExhaustiveDependencies: `value` is what `key` spells
  useEffect(() => {
    if (key === settled.key) return
    const timer = setTimeout(() => setSettled({ key, value }), ms)
    return () => clearTimeout(timer)
  }, [key, settled.key, ms])
  return key === settled.key ? value : settled.value
}

const onVisibilityChange = (callback: () => void) => {
  document.addEventListener('visibilitychange', callback)
  return () => document.removeEventListener('visibilitychange', callback)
}

/** Whether the page is on screen: a hidden tab re-prices nothing. */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    onVisibilityChange,
    () => document.visibilityState !== 'hidden',
    () => true,
  )
}

const samePrice = (a: Quote, b: Quote) => a.to.amount === b.to.amount && a.total === b.total

export interface LiveQuote {
  /** The newest quote, possibly for an earlier input while the next one loads (see `current`). */
  quote: Quote | undefined
  /** `quote` answers exactly what is typed now, and no later attempt failed. */
  current: boolean
  /** A quote for the current input is on its way (typing settled or not). */
  updating: boolean
  error: unknown
  /** Offline: the quote waits for the connection. */
  paused: boolean
  receivedAt: number
  secondsLeft: number
  expired: boolean
  /** Expired, and left so: too many refreshes nobody looked at. `refetch` asks again. */
  stopped: boolean
  /**
   * The price to say to screen readers: a new object only when the person
   * asked for something new or the price moved, never for a refresh at the
   * same price (one live region would otherwise speak every 30 s).
   */
  announce: Quote | undefined
  /** Asks again now: the person's own request, so the idle count starts over. */
  refetch: () => void
}

/**
 * The live quote of a form: asked for once typing settles, the previous
 * request aborted (quoteQuery), and — while `active`, the page is visible
 * and someone is using the form — asked for again when the one on screen
 * expires: once per expiry, whatever that attempt answers. A failed attempt
 * takes the old price off the screen (it cannot be confirmed any more);
 * network trouble is retried with backoff by the query itself (quoteQuery).
 */
export function useLiveQuote(query: QuoteQuery | undefined, active: boolean): LiveQuote {
  const settled = useSettled(query, QUOTE_DEBOUNCE_MS)
  const settledKey = JSON.stringify(settled)
  const typing = settledKey !== JSON.stringify(query)
  const visible = usePageVisible()
  const result = useQuery({
    // The options of some quote are needed even when there is none to ask for.
    ...quoteQuery(settled ?? ({} as QuoteQuery)),
    enabled: active && settled !== undefined,
  })
  // An error newer than the data: the last attempt failed, the price on screen is stale.
  const failedLast = result.errorUpdatedAt > result.dataUpdatedAt
  const current =
    settled !== undefined &&
    !typing &&
    result.data !== undefined &&
    !result.isPlaceholderData &&
    !failedLast
  const until = current ? localExpiry(result.data!, result.dataUpdatedAt) : undefined
  const secondsLeft = useSecondsLeft(until)
  const expired = current && secondsLeft === 0

  // Refreshes in a row without the person: counted per input, so typing starts over.
  const [idle, setIdle] = useState({ key: settledKey, count: 0, refreshedFor: 0 })
  const mine = idle.key === settledKey ? idle : { key: settledKey, count: 0, refreshedFor: 0 }
  const stopped = expired && mine.count >= MAX_IDLE_REFRESHES

  const { refetch, isFetching, dataUpdatedAt } = result
  useEffect(() => {
    if (!active || !expired || isFetching || !visible || stopped) return
    // Once per expiry: the quote received at `dataUpdatedAt` is refreshed one time, whatever comes back.
    if (mine.refreshedFor === dataUpdatedAt) return
    setIdle({ key: settledKey, count: mine.count + 1, refreshedFor: dataUpdatedAt })
    void refetch()
  }, [active, expired, isFetching, visible, stopped, mine, dataUpdatedAt, settledKey, refetch])

  const [said, setSaid] = useState<{ key: string; quote: Quote }>()
  const fresh = current ? result.data : undefined
  useEffect(() => {
    if (!fresh) return
    setSaid((before) =>
      before && before.key === settledKey && samePrice(before.quote, fresh)
        ? before
        : { key: settledKey, quote: fresh },
    )
  }, [fresh, settledKey])

  return {
    quote: settled === undefined ? undefined : result.data,
    current,
    updating: settled !== undefined && (typing || (result.isFetching && !current)),
    error: settled !== undefined && !typing ? result.error : null,
    paused: result.fetchStatus === 'paused',
    receivedAt: result.dataUpdatedAt,
    secondsLeft,
    expired,
    stopped,
    announce: current && said?.key === settledKey ? said.quote : undefined,
    refetch: () => {
      setIdle({ key: settledKey, count: 0, refreshedFor: dataUpdatedAt })
      void refetch()
    },
  }
}
