import { useMemo, useRef } from 'react'
import { ApiError } from '../net/api.ts'

/**
 * # Confirm once
 *
 * A confirmation that moves money or creates something (placing an order,
 * issuing a card) carries an idempotency key, `request_id`: the server
 * answers a key it has seen with its first answer. This hook keeps one key
 * per set of choices so that nothing the person or the network does makes a
 * second one:
 *
 * - a double tap: an in-flight latch, set before React re-renders;
 * - a retry after a lost answer: the same choices, the same key;
 * - a reload after a lost answer: the key is written to the tab's
 *   sessionStorage before the request leaves, under its `choice` (a
 *   fingerprint of what was chosen), and the same choices made again find
 *   it. The orders flow also reads the stored body back to finish the
 *   confirmation by itself (orders/resume-placement.tsx);
 * - a change of choice: another key (a new card, a new price).
 *
 * The stored confirmation is forgotten when an answer settles the question —
 * a success, or a refusal that proves nothing was done (isDefiniteRefusal) —
 * and at logout (forgetConfirmations). sessionStorage, not localStorage: it
 * belongs to this tab, survives a reload and a killed-and-restored PWA page,
 * and is gone with the tab. Nothing secret is kept: ids and the person's own
 * choices.
 */

const PREFIX = 'finplatform.confirm.'

export interface Confirmation<T> {
  /** What was chosen, as a fingerprint: the same choices make the same string. */
  choice: string
  request_id: string
  body: T
}

/**
 * Whether an answer settles the question "was it done?": a 2xx does, and so
 * does a refusal (4xx) — the server refused before doing anything. A lost
 * answer, a timeout (or 408), a 5xx or a 429 (not looked at yet) leave it open.
 */
export const isDefiniteRefusal = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429

/** The confirmation of `scope` still waiting for its answer in this tab, if any (and well-formed). */
export function pendingConfirmation<T>(
  scope: string,
  accept: (body: unknown) => body is T,
): Confirmation<T> | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(sessionStorage.getItem(PREFIX + scope) ?? 'null')
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const { choice, request_id: requestId, body } = parsed as Record<string, unknown>
  if (typeof choice !== 'string' || typeof requestId !== 'string' || requestId === '') {
    return undefined
  }
  return accept(body) ? { choice, request_id: requestId, body } : undefined
}

/** Written BEFORE the request leaves: a reload at any moment after finds it. */
export function rememberConfirmation<T>(scope: string, confirmation: Confirmation<T>) {
  try {
    sessionStorage.setItem(PREFIX + scope, JSON.stringify(confirmation))
  } catch {
    // Storage refused (private mode, quota): the tab's own retry still uses the same key.
  }
}

/** Forgets `scope`'s confirmation if it is this one: a newer one may have replaced it meanwhile. */
export function forgetConfirmation(scope: string, requestId: string) {
  const key = PREFIX + scope
  try {
    const stored = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { request_id?: unknown }
    if (stored?.request_id === requestId) sessionStorage.removeItem(key)
  } catch {
    sessionStorage.removeItem(key)
  }
}

/** At logout: no confirmation of one person is resumed, or its key reused, by the next. */
export function forgetConfirmations() {
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith(PREFIX)) sessionStorage.removeItem(key)
    }
  } catch {
    // Nothing stored, nothing to forget.
  }
}

const anyBody = (_body: unknown): _body is unknown => true

/** The key for `choice`: the one a pending confirmation of the same choice used, else a new one. */
function requestIdFor(scope: string, choice: string | undefined): string {
  const pending = pendingConfirmation(scope, anyBody)
  return pending && pending.choice === choice ? pending.request_id : crypto.randomUUID()
}

/**
 * The idempotency key of the choices on screen and the latch around sending
 * it. `choice` is undefined while nothing can be confirmed yet.
 *
 * `start(body)` before the request: false when one is already in flight (a
 * second tap: send nothing); `finish(error)` once the answer came (or did
 * not): a success or a definite refusal forgets it, anything else keeps it
 * for the retry or the reload.
 */
export function useConfirmOnce<T>(scope: string, choice: string | undefined) {
  const inFlight = useRef(false)
  const requestId = useMemo(() => requestIdFor(scope, choice), [scope, choice])
  return useMemo(
    () => ({
      requestId,
      start(body: T): boolean {
        if (inFlight.current || choice === undefined) return false
        inFlight.current = true
        rememberConfirmation(scope, { choice, request_id: requestId, body })
        return true
      },
      finish(error?: unknown) {
        inFlight.current = false
        if (!error || isDefiniteRefusal(error)) forgetConfirmation(scope, requestId)
      },
    }),
    [scope, choice, requestId],
  )
}
