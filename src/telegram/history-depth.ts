/**
 * How many steps back stay inside the app, for Telegram's BackButton: shown
 * when there is somewhere to go back to, hidden on the first screen (where
 * Telegram's own "close" is the way out).
 *
 * Each history entry carries its depth in its state (merged into whatever
 * state the app put there), so the answer survives reloads and back/forward
 * jumps. wouter announces its pushState/replaceState as events of those
 * names; the depth is written with History.prototype.replaceState, which
 * wouter does not announce, so no route re-renders for it.
 */
export const DEPTH_KEY = 'finplatform.depth'

type Listener = (depth: number) => void

export function trackHistoryDepth(onChange: Listener, win: Window = window): () => void {
  const { history } = win
  const replaceQuietly = Object.getPrototypeOf(history).replaceState as History['replaceState']

  const stated = (): number | undefined => {
    const value = (history.state as Record<string, unknown> | null)?.[DEPTH_KEY]
    return typeof value === 'number' ? value : undefined
  }
  const stamp = (value: number) => {
    const state = history.state
    const base = typeof state === 'object' && state !== null ? state : {}
    replaceQuietly.call(history, { ...base, [DEPTH_KEY]: value }, '')
  }

  let depth = stated() ?? 0
  if (stated() === undefined) stamp(depth)
  onChange(depth)

  const pushed = () => {
    depth += 1
    stamp(depth)
    onChange(depth)
  }
  const replaced = () => {
    if (stated() === undefined) stamp(depth)
  }
  const popped = () => {
    // An entry without a depth was not made by the app: the start.
    depth = stated() ?? 0
    onChange(depth)
  }
  win.addEventListener('pushState', pushed)
  win.addEventListener('replaceState', replaced)
  win.addEventListener('popstate', popped)
  return () => {
    win.removeEventListener('pushState', pushed)
    win.removeEventListener('replaceState', replaced)
    win.removeEventListener('popstate', popped)
  }
}
