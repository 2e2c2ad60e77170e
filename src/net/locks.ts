/** The part of the Web Locks API the auth proxy needs: exclusive, named, FIFO. */
export interface Locks {
  request<T>(name: string, task: () => Promise<T>): Promise<T>
}

/**
 * Web Locks are shared by every tab and the service worker of an origin, so a
 * refresh runs once across all of them. Where the API is missing, fall back
 * to a lock inside this one runtime.
 */
export function webLocks(): Locks {
  const manager = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks
  if (!manager) return memoryLocks()
  return {
    request: (name, task) =>
      manager.request(name, task) as Promise<Awaited<ReturnType<typeof task>>>,
  }
}

/** Locks inside one runtime; tests share one between two proxies to play two tabs. */
export function memoryLocks(): Locks {
  const tails = new Map<string, Promise<unknown>>()
  return {
    request(name, task) {
      const previous = tails.get(name) ?? Promise.resolve()
      const run = previous.then(task, task)
      const tail = run.catch(() => undefined)
      tails.set(name, tail)
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name)
      })
      return run
    },
  }
}
