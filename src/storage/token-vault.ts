import { type DBSchema, openDB } from 'idb'

/** The session tokens (docs/product.md §3). Only src/net reads them. */
export interface Tokens {
  access_token: string
  refresh_token?: string | null
}

export interface TokenVault {
  /**
   * The stored tokens. A vault that remembers (remembering-vault.ts) answers
   * from memory; `fresh` reads the database anyway (the refresh path: another
   * tab may have rotated the tokens a moment ago, and its announcement may not
   * be here yet).
   */
  read(options?: { fresh?: boolean }): Promise<Tokens | undefined>
  write(tokens: Tokens): Promise<void>
  clear(): Promise<void>
}

interface VaultSchema extends DBSchema {
  vault: { key: 'tokens'; value: Tokens }
}

const DB_NAME = 'auth'
/** Every change of the stored tokens is announced here, to every other context of the origin. */
export const VAULT_CHANNEL = 'auth-vault'
export const VAULT_CHANGED = 'changed'

/** What the vault keeps of `tokens`: the pair, nothing else the answer carried. */
export const storedTokens = (tokens: Tokens): Tokens => ({
  access_token: tokens.access_token,
  refresh_token: tokens.refresh_token,
})

/**
 * Tokens live in IndexedDB because the service worker cannot read
 * localStorage; the page and the worker open the same store. This vault reads
 * the database every time. Each write and clear is announced on
 * `VAULT_CHANNEL` once it is committed — on `channel` when given (a channel
 * does not hear its own messages), else on one opened for the message — so a
 * vault that remembers, in another context, drops its copy.
 */
export function openTokenVault(channel?: BroadcastChannel): TokenVault {
  let db: ReturnType<typeof openDB<VaultSchema>> | undefined
  const open = () => {
    db ??= openDB<VaultSchema>(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('vault')
      },
    })
    return db
  }
  const announce = () => {
    if (channel) return channel.postMessage(VAULT_CHANGED)
    if (typeof BroadcastChannel !== 'function') return
    // A posted message is queued for every receiver before close() takes effect.
    const once = new BroadcastChannel(VAULT_CHANNEL)
    once.postMessage(VAULT_CHANGED)
    once.close()
  }
  return {
    async read() {
      return (await open()).get('vault', 'tokens')
    },
    async write(tokens) {
      await (await open()).put('vault', storedTokens(tokens), 'tokens')
      announce()
    },
    async clear() {
      await (await open()).delete('vault', 'tokens')
      announce()
    },
  }
}
