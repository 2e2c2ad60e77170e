import type { ColumnType } from 'kysely'
import type { Reserves, SnapshotBalance } from '../../../contract/proofs.ts'

/** The tables of migration 0031 (issue 33: proof of balances), joined into `DB` in schema.ts. */

type CreatedAt = ColumnType<Date, Date | undefined, Date>
type Json<T> = ColumnType<T, string, string>

export interface ProofKeysTable {
  /** The key id: the public key's fingerprint (contract/balance-proof.ts keyIdOf). */
  id: string
  tenant_id: string
  public_key_pem: string
  /** The PKCS #8 private key, sealed (infra/sealing.ts) under PROOF_KEYS_KEY. */
  private_key_sealed: string
  created_at: CreatedAt
  retired_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

export interface ProofSnapshotsTable {
  id: string
  tenant_id: string
  /** The UTC day, written and compared as 'YYYY-MM-DD' (never selected bare: drivers read a date as a Date). */
  day: ColumnType<string, string, string>
  taken_at: Date
  leaf_count: number
  root_hash: string
  root_sums: string
  key_id: string
  signature: string
  reserves: ColumnType<Reserves | null, string | null, string | null>
}

export interface ProofNodesTable {
  snapshot_id: string
  level: number
  position: number
  hash: string
  sums: string
}

export interface ProofLeavesTable {
  snapshot_id: string
  tenant_id: string
  user_id: string
  position: number
  nonce: string
  balances: Json<SnapshotBalance[]>
}

export interface ProofTables {
  proof_keys: ProofKeysTable
  proof_snapshots: ProofSnapshotsTable
  proof_nodes: ProofNodesTable
  proof_leaves: ProofLeavesTable
}
