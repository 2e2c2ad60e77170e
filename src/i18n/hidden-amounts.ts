/*
 * "Hide amounts" (issue 31): one tap hides every amount the app shows, as
 * "•••" — in public, on a shared screen, in a screenshot. The one money
 * formatter (money.ts) reads it, so nothing shows digits it forgot to hide;
 * the i18n provider re-renders every screen when it changes. Remembered per
 * device (localStorage, which the Mini App's web view keeps too).
 */

/** What an amount reads while amounts are hidden. */
export const HIDDEN_AMOUNT = '•••'

const STORAGE_KEY = 'amountsHidden'

/** Private mode refuses storage: the choice then lasts for this visit. */
let unstored: boolean | undefined
const listeners = new Set<() => void>()

/** Whether amounts are hidden on this device. */
export function amountsHidden(): boolean {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (stored !== null) return stored === '1'
  } catch {
    // Storage refused: what was chosen this visit, if anything.
  }
  return unstored ?? false
}

export function setAmountsHidden(hidden: boolean): void {
  unstored = hidden
  try {
    localStorage.setItem(STORAGE_KEY, hidden ? '1' : '0')
  } catch {
    // Private mode: kept in memory for this visit only.
  }
  for (const listener of listeners) listener()
}

export function subscribeAmountsHidden(listener: () => void): () => void {
  listeners.add(listener)
  // Another tab changed it: follow.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener()
  }
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage)
  }
}
