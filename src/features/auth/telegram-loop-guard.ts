/**
 * Stops the Mini App from reloading and signing in forever. In Telegram there
 * is no sign-out link, so every arrival at the logout location means the auth
 * proxy gave up on a 401. When a Telegram sign-in succeeds but the next
 * request is refused again (a route that refuses the token, a key that
 * differs between nodes), sign-in → 401 → logout → sign-in would go round
 * with a full reload and a new server session each time. A second such
 * logout within `LOOP_WINDOW_MS` of the last automatic sign-in stops it: the
 * failed screen shows, and the person retries by hand.
 *
 * Pure: the state lives in sessionStorage (`LOOP_GUARD_KEY`), one tab's worth.
 */
export const LOOP_WINDOW_MS = 60_000
export const LOOP_GUARD_KEY = 'telegram/loop-guard'

export interface LoopGuard {
  /** When the app last signed in with Telegram by itself (ms since the epoch). */
  signedInAt?: number
  /** Logouts in a row that each came within the window after a sign-in. */
  logouts: number
}

export const noLoop: LoopGuard = { logouts: 0 }

export const afterSignIn = (guard: LoopGuard, now: number): LoopGuard => ({
  ...guard,
  signedInAt: now,
})

/** The guard after an arrival at the logout location, and whether to stop signing in. */
export function afterLogout(guard: LoopGuard, now: number): { guard: LoopGuard; stop: boolean } {
  const soon = guard.signedInAt !== undefined && now - guard.signedInAt < LOOP_WINDOW_MS
  // A logout long after the sign-in is a session that ran its course, not a loop.
  const logouts = soon ? guard.logouts + 1 : 0
  return { guard: { ...guard, logouts }, stop: logouts >= 2 }
}

export function readLoopGuard(storage: Pick<Storage, 'getItem'> | undefined): LoopGuard {
  try {
    const value = JSON.parse(storage?.getItem(LOOP_GUARD_KEY) ?? 'null') as Partial<LoopGuard>
    if (typeof value?.logouts !== 'number') return noLoop
    return {
      logouts: value.logouts,
      signedInAt: typeof value.signedInAt === 'number' ? value.signedInAt : undefined,
    }
  } catch {
    return noLoop
  }
}

export function writeLoopGuard(
  storage: Pick<Storage, 'setItem'> | undefined,
  guard: LoopGuard,
): void {
  try {
    storage?.setItem(LOOP_GUARD_KEY, JSON.stringify(guard))
  } catch {
    // Without storage nothing is counted across the reload; the retry screen still shows on a failed sign-in.
  }
}
