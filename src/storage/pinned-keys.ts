import { type DBSchema, openDB } from 'idb'

/** A tenant's proof key as this device first trusted it. */
export interface PinnedKey {
  /** The key's fingerprint (contract/balance-proof.ts keyIdOf). */
  keyId: string
  /** ISO 8601: when this device pinned it. */
  pinnedAt: string
}

export interface PinnedKeys {
  get(tenantId: string): Promise<PinnedKey | undefined>
  /** Trusts `keyId` for the tenant from now on (the first use, or the person accepting a new key). */
  pin(tenantId: string, keyId: string, at?: Date): Promise<PinnedKey>
}

interface PinSchema extends DBSchema {
  keys: { key: string; value: PinnedKey }
}

const DB_NAME = 'pinned-keys'

/**
 * The proof-of-balances keys this device trusts, one per tenant, pinned on
 * first use (issue 33): a later key that differs is refused until the person
 * accepts it. A key is public and the trust is the device's, not a session's,
 * so signing out keeps it: whoever signs in next is checked against it too.
 */
export function openPinnedKeys(name = DB_NAME): PinnedKeys {
  let db: ReturnType<typeof openDB<PinSchema>> | undefined
  const open = () => {
    db ??= openDB<PinSchema>(name, 1, {
      upgrade(database) {
        database.createObjectStore('keys')
      },
    })
    return db
  }
  return {
    async get(tenantId) {
      return (await open()).get('keys', tenantId)
    },
    async pin(tenantId, keyId, at = new Date()) {
      const pinned = { keyId, pinnedAt: at.toISOString() }
      await (await open()).put('keys', pinned, tenantId)
      return pinned
    },
  }
}
