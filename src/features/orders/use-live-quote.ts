import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
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

export interface LiveQuote {
  /** The newest quote, possibly for an earlier input while the next one loads (see `current`). */
  quote: Quote | undefined
  /** `quote` answers exactly what is typed now. */
  current: boolean
  /** A quote for the current input is on its way (typing settled or not). */
  updating: boolean
  error: unknown
  /** Offline: the quote waits for the connection. */
  paused: boolean
  receivedAt: number
  secondsLeft: number
  expired: boolean
  refetch: () => void
}

/**
 * The live quote of a form: asked for once typing settles, the previous
 * request aborted (quoteQuery), and — while `active` — asked for again
 * whenever the one on screen expires, so the form always shows a price that
 * can be confirmed.
 */
export function useLiveQuote(query: QuoteQuery | undefined, active: boolean): LiveQuote {
  const settled = useSettled(query, QUOTE_DEBOUNCE_MS)
  const typing = JSON.stringify(settled) !== JSON.stringify(query)
  const result = useQuery({
    // The options of some quote are needed even when there is none to ask for.
    ...quoteQuery(settled ?? ({} as QuoteQuery)),
    enabled: active && settled !== undefined,
  })
  const current =
    settled !== undefined && !typing && result.data !== undefined && !result.isPlaceholderData
  const until = current ? localExpiry(result.data!, result.dataUpdatedAt) : undefined
  const secondsLeft = useSecondsLeft(until)
  const expired = current && secondsLeft === 0

  const { refetch, isFetching } = result
  useEffect(() => {
    if (active && expired && !isFetching) void refetch()
  }, [active, expired, isFetching, refetch])

  return {
    quote: settled === undefined ? undefined : result.data,
    current,
    updating: settled !== undefined && (typing || (result.isFetching && !current)),
    error: settled !== undefined && !typing ? result.error : null,
    paused: result.fetchStatus === 'paused',
    receivedAt: result.dataUpdatedAt,
    secondsLeft,
    expired,
    refetch: () => void refetch(),
  }
}
