import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { seal, unseal } from '../../infra/sealing.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** The seed every tenant's deposit addresses derive from (derive.ts): 32 random bytes. */
export const SEED_BYTES = 32

/**
 * Tenants' address seeds, generated on first need and kept encrypted with
 * AES-256-GCM under `config.secrets.addressSeedKey`. The tenant id is the
 * additional authenticated data: a ciphertext copied to another tenant's row
 * fails to decrypt instead of handing that tenant someone else's addresses
 * (infra/sealing.ts).
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
    return seal(this.key, tenantId.toLowerCase(), seed)
  }

  /** @throws Error when the key is wrong or the row was tampered with or moved. */
  decrypt(tenantId: string, stored: string): Uint8Array {
    const opened = unseal(this.key, tenantId.toLowerCase(), stored)
    if (opened.ok) return opened.plaintext
    throw new Error(
      opened.failure === 'format'
        ? `the address seed of tenant ${tenantId} is in an unknown format`
        : `the address seed of tenant ${tenantId} does not decrypt: ADDRESS_SEED_KEY (or DATA_DIR/secrets.json) is not the key it was stored under`,
    )
  }
}
