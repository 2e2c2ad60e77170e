/** A FIFO async mutex: waiters are served in the order they asked. */
export class Mutex {
  #locked = false
  readonly #waiters: Array<() => void> = []

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#waiters.push(resolve))
  }

  unlock(): void {
    const next = this.#waiters.shift()
    // Hand the lock straight to the next waiter so nobody can barge in between.
    if (next) next()
    else this.#locked = false
  }

  /** Runs `task` holding the lock. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.lock()
    try {
      return await task()
    } finally {
      this.unlock()
    }
  }
}
