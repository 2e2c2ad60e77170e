/**
 * A yes/no choice kept on this device (localStorage, which the Mini App's web
 * view keeps too): hidden amounts, Latin digits. Private mode refuses storage;
 * the choice then lasts for this visit. Another tab's change is followed.
 */
export function deviceFlag(key: string) {
  let unstored: boolean | undefined
  const listeners = new Set<() => void>()
  return {
    read(): boolean {
      try {
        const stored = localStorage.getItem(key)
        if (stored !== null) return stored === '1'
      } catch {
        // Storage refused: what was chosen this visit, if anything.
      }
      return unstored ?? false
    },
    set(value: boolean): void {
      unstored = value
      try {
        localStorage.setItem(key, value ? '1' : '0')
      } catch {
        // Private mode: kept in memory for this visit only.
      }
      for (const listener of listeners) listener()
    },
    // Only a browser subscribes (React's effects): `window` is there.
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      const onStorage = (event: StorageEvent) => {
        if (event.key === key) listener()
      }
      addEventListener('storage', onStorage)
      return () => {
        listeners.delete(listener)
        removeEventListener('storage', onStorage)
      }
    },
  }
}
