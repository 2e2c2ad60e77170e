import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The seed every tenant's deposit addresses derive from (derive.ts): 32 random bytes. */
export const SEED_BYTES = 32

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * Tenants' address seeds, generated on first need and kept encrypted with
 * AES-256-GCM under `config.secrets.addressSeedKey`. The tenant id is the
 * additional authenticated data: a ciphertext copied to another tenant's row
 * fails to decrypt instead of handing that tenant someone else's addresses.
 *
 * Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url), so a later key rotation
 * can tell old rows from new ones.
 */
export class SeedStore {
  /** Decrypted seeds by tenant: a seed never changes once written. */
  readonly #cache = new Map<string, Uint8Array>()

  constructor(private readonly key: Uint8Array) {
    if (key.length !== 32) throw new Error('the address seed key must be 32 bytes')
  }

  /** The tenant's seed, created (once, whoever races) when it has none yet. */
  async seedOf(db: Executor, tenantId: string): Promise<Uint8Array> {
    const cached = this.#cache.get(tenantId)
    if (cached) return cached
    // Two first requests may both generate a seed; the primary key keeps the first.
    await db
      .insertInto('tenant_address_seeds')
      .values({
        tenant_id: tenantId,
        seed_ciphertext: this.encrypt(tenantId, randomBytes(SEED_BYTES)),
      })
      .onConflict((oc) => oc.column('tenant_id').doNothing())
      .execute()
    const row = await db
      .selectFrom('tenant_address_seeds')
      .select('seed_ciphertext')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
    const seed = this.decrypt(tenantId, row.seed_ciphertext)
    this.#cache.set(tenantId, seed)
    return seed
  }

  encrypt(tenantId: string, seed: Uint8Array): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    cipher.setAAD(Buffer.from(tenantId.toLowerCase()))
    const ciphertext = Buffer.concat([cipher.update(seed), cipher.final()])
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.')
  }

  /** @throws Error when the key is wrong or the row was tampered with or moved. */
  decrypt(tenantId: string, stored: string): Uint8Array {
    const [version, iv, tag, ciphertext] = stored.split('.')
    if (version !== VERSION || !iv || !tag || !ciphertext) {
      throw new Error(`the address seed of tenant ${tenantId} is in an unknown format`)
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    })
    decipher.setAAD(Buffer.from(tenantId.toLowerCase()))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    try {
      return new Uint8Array(
        Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]),
      )
    } catch {
      throw new Error(
        `the address seed of tenant ${tenantId} does not decrypt: ADDRESS_SEED_KEY (or DATA_DIR/secrets.json) is not the key it was stored under`,
      )
    }
  }
}
