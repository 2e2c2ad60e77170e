import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import type { Kysely } from 'kysely'
import { keyIdOf } from '../../../contract/balance-proof.ts'
import type { DB } from '../../infra/db/schema.ts'
import { seal, unseal } from '../../infra/sealing.ts'
import * as repo from './repository.ts'

export interface ProofKeyInfo {
  keyId: string
  tenantId: string
  publicKeyPem: string
  createdAt: Date
}

const info = (row: repo.KeyRow): ProofKeyInfo => ({
  keyId: row.id,
  tenantId: row.tenant_id,
  publicKeyPem: row.public_key_pem,
  createdAt: row.created_at,
})

/**
 * The tenants' Ed25519 proof keys. The private half is generated here, kept
 * only sealed (AES-256-GCM under PROOF_KEYS_KEY, the tenant and key ids as
 * additional data: a sealed key copied to another tenant's row does not open)
 * and opened in memory when a root is signed.
 */
export class ProofKeys {
  /** Opened private keys by key id: a key never changes once written. */
  readonly #opened = new Map<string, KeyObject>()

  constructor(
    private readonly db: Kysely<DB>,
    private readonly sealingKey: Uint8Array,
  ) {
    if (sealingKey.length !== 32) throw new Error('PROOF_KEYS_KEY must be 32 bytes')
  }

  async current(tenantId: string): Promise<ProofKeyInfo | undefined> {
    const row = await repo.findCurrentKey(this.db, tenantId)
    return row && info(row)
  }

  /**
   * The tenant's current key, made when it has none; with `rotate`, a new one
   * replaces it (the roots the old key signed keep naming it).
   */
  async ensure(
    tenantId: string,
    options: { rotate?: boolean; now?: Date } = {},
  ): Promise<{ key: ProofKeyInfo; created: boolean }> {
    if (!options.rotate) {
      const existing = await this.current(tenantId)
      if (existing) return { key: existing, created: false }
    }
    const fresh = this.#generate(tenantId)
    await this.db.transaction().execute(async (trx) => {
      if (options.rotate) await repo.retireKeys(trx, tenantId, options.now ?? new Date())
      await repo.insertKeyUnlessCurrent(trx, fresh)
    })
    const key = await this.current(tenantId)
    if (!key) throw new Error(`the proof key of tenant ${tenantId} was not created`)
    return { key, created: key.keyId === fresh.id }
  }

  /** Ed25519 over the UTF-8 of `message` with the tenant's key `keyId`, base64. */
  async sign(tenantId: string, keyId: string, message: string): Promise<string> {
    let key = this.#opened.get(keyId)
    if (!key) {
      const row = await repo.findKey(this.db, tenantId, keyId)
      if (!row) throw new Error(`tenant ${tenantId} has no proof key ${keyId}`)
      const opened = unseal(this.sealingKey, `${tenantId}|${keyId}`, row.private_key_sealed)
      if (!opened.ok) {
        throw new Error(
          `the proof key ${keyId} of tenant ${tenantId} does not open: PROOF_KEYS_KEY (or DATA_DIR/secrets.json) is not the key it was stored under`,
        )
      }
      key = createPrivateKey({ key: Buffer.from(opened.plaintext), format: 'der', type: 'pkcs8' })
      this.#opened.set(keyId, key)
    }
    return sign(null, Buffer.from(message, 'utf8'), key).toString('base64')
  }

  #generate(tenantId: string) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    // The SubjectPublicKeyInfo's last 32 bytes are the raw key (RFC 8410).
    const raw = publicKey.export({ type: 'spki', format: 'der' }).subarray(12)
    const id = keyIdOf(new Uint8Array(raw))
    const der = privateKey.export({ type: 'pkcs8', format: 'der' })
    return {
      id,
      tenant_id: tenantId,
      public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      private_key_sealed: seal(this.sealingKey, `${tenantId}|${id}`, new Uint8Array(der)),
    }
  }
}
