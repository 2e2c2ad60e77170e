import { type DBSchema, openDB } from 'idb'

/** The session tokens (SPEC.md §3). Only src/net reads them. */
export interface Tokens {
  access_token: string
  refresh_token?: string | null
}

export interface TokenVault {
  read(): Promise<Tokens | undefined>
  write(tokens: Tokens): Promise<void>
  clear(): Promise<void>
}

interface VaultSchema extends DBSchema {
  vault: { key: 'tokens'; value: Tokens }
}

const DB_NAME = 'auth'

/**
 * Tokens live in IndexedDB because the service worker cannot read
 * localStorage; the page and the worker open the same store. Every read goes
 * to the database, never to a copy in memory: another tab or the worker may
 * have rotated the tokens a moment ago.
 */
export function openTokenVault(): TokenVault {
  let db: ReturnType<typeof openDB<VaultSchema>> | undefined
  const open = () => {
    db ??= openDB<VaultSchema>(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('vault')
      },
    })
    return db
  }
  return {
    async read() {
      return (await open()).get('vault', 'tokens')
    },
    async write(tokens) {
      const value: Tokens = {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
      }
      await (await open()).put('vault', value, 'tokens')
    },
    async clear() {
      await (await open()).delete('vault', 'tokens')
    },
  }
}
