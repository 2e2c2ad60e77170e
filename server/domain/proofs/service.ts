import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { formatSums, rootMessage, type Sums } from '../../../contract/balance-proof.ts'
import type { MyProof, ProofKey, PublishedRoot, Reserves } from '../../../contract/proofs.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { ReservesProvider } from '../../providers/reserves/reserves.ts'
import type { Owner } from '../owner.ts'
import { ProofReadError, PublishError } from './errors.ts'
import * as repo from './repository.ts'
import {
  buildTree,
  type Currency,
  depthOf,
  peopleOf,
  type RandomBytes,
  reserveLines,
  siblingsOf,
  utcDay,
} from './rules.ts'
import type { ProofKeys } from './signing-keys.ts'

/** Days a snapshot's tree (nodes and leaves) is kept; its root is kept for ever. */
export const KEEP_TREES_DAYS = 7

const DAY_MS = 24 * 60 * 60 * 1000

export interface PublishOutcome {
  root: PublishedRoot
  /** False: the tenant had published that day already, and this is that root. */
  published: boolean
}

const toRoot = (row: repo.SnapshotRow): PublishedRoot => ({
  tenant_id: row.tenant_id,
  snapshot_id: row.id,
  taken_at: row.taken_at.toISOString(),
  leaf_count: row.leaf_count,
  hash: row.root_hash,
  sums: row.root_sums,
  signature: row.signature,
  key_id: row.key_id,
  reserves: row.reserves,
})

/**
 * The proof of balances (issue 33): a read model of the ledger. Publishing
 * reads every person's balances in one REPEATABLE READ snapshot, builds the
 * Merkle-sum tree, checks its root against the ledger's own total of the
 * liabilities, signs it with the tenant's key and stores the tree, once per
 * tenant and UTC day. People read their own leaf and path; anyone reads the
 * roots and the key.
 */
export class ProofService {
  constructor(
    private readonly db: Kysely<DB>,
    /** The tenants' signing keys (the CLI and the demo's start make them). */
    readonly keys: ProofKeys,
    private readonly reserves: ReservesProvider | undefined,
    private readonly random: RandomBytes = (count) => new Uint8Array(randomBytes(count)),
  ) {}

  /**
   * Publishes the tenant's snapshot of `now`'s UTC day, or answers the one
   * published that day already: idempotent per day.
   * @throws PublishError PROOF_KEY_MISSING, BALANCES_UNSETTLED, LIABILITIES_MISMATCH
   */
  async publish(tenantId: string, now: Date = new Date()): Promise<PublishOutcome> {
    const day = utcDay(now)
    const existing = await repo.findSnapshotOfDay(this.db, tenantId, day)
    if (existing) return { root: toRoot(existing), published: false }
    const key = await this.keys.current(tenantId)
    if (!key) throw new PublishError({ kind: 'PROOF_KEY_MISSING', tenantId })

    const read = await repo.readBalances(this.db, tenantId)
    const currencies = byCode(read.currencies)
    const { people, pending, negative } = peopleOf({ ...read, currencies })
    if (pending > 0 || negative > 0) {
      throw new PublishError({ kind: 'BALANCES_UNSETTLED', pending, negative })
    }
    const snapshotId = uuidv7()
    const codes = currencies.map((currency) => currency.code)
    const tree = buildTree({ tenantId, snapshotId, codes, people, random: this.random })
    const top = tree.levels.at(-1)![0]!
    const ledger: Sums = top.sums.map(([code]) => [code, read.liabilities.get(code) ?? 0n])
    if (formatSums(ledger) !== formatSums(top.sums)) {
      throw new PublishError({
        kind: 'LIABILITIES_MISMATCH',
        ledger: formatSums(ledger),
        root: formatSums(top.sums),
      })
    }

    const unsigned = {
      tenant_id: tenantId,
      snapshot_id: snapshotId,
      taken_at: now.toISOString(),
      leaf_count: tree.levels[0]!.length,
      hash: top.hash,
      sums: formatSums(top.sums),
    }
    const row: repo.SnapshotRow = {
      id: snapshotId,
      tenant_id: tenantId,
      taken_at: now,
      leaf_count: unsigned.leaf_count,
      root_hash: unsigned.hash,
      root_sums: unsigned.sums,
      key_id: key.keyId,
      signature: await this.keys.sign(tenantId, key.keyId, rootMessage(unsigned)),
      reserves: await this.#attest(tenantId, now, top.sums, read.currencies, currencies),
    }
    const balances = new Map(people.map((person) => [person.userId, person.balances]))
    const written = await this.db.transaction().execute(async (trx) => {
      if (!(await repo.insertSnapshot(trx, { ...row, day }))) return false
      await repo.insertNodes(
        trx,
        tree.levels.flatMap((nodes, level) =>
          nodes.map((node, position) => ({
            snapshot_id: snapshotId,
            level,
            position,
            hash: node.hash,
            sums: formatSums(node.sums),
          })),
        ),
      )
      await repo.insertLeaves(
        trx,
        tree.leaves.map((leaf) => ({
          snapshot_id: snapshotId,
          tenant_id: tenantId,
          user_id: leaf.userId,
          position: leaf.position,
          nonce: leaf.nonce,
          balances: balances.get(leaf.userId)!,
        })),
      )
      await repo.pruneTrees(
        trx,
        tenantId,
        utcDay(new Date(now.getTime() - KEEP_TREES_DAYS * DAY_MS)),
      )
      return true
    })
    if (written) return { root: toRoot(row), published: true }
    // Another process published this day's meanwhile: theirs is the day's root.
    const theirs = await repo.findSnapshotOfDay(this.db, tenantId, day)
    if (!theirs) throw new Error(`the snapshot of ${day} for tenant ${tenantId} vanished`)
    return { root: toRoot(theirs), published: false }
  }

  /** What the custodian attests, set against the root's sums; null without a custodian. */
  async #attest(
    tenantId: string,
    now: Date,
    liabilities: Sums,
    catalogue: readonly repo.CurrencyRow[],
    currencies: readonly Currency[],
  ): Promise<Reserves | null> {
    if (!this.reserves) return null
    const attestation = await this.reserves.attest(tenantId, now)
    const codes = new Map(catalogue.map((currency) => [currency.uuid, currency.code]))
    const assets = new Map<string, bigint>()
    for (const holding of attestation.holdings) {
      const code = codes.get(holding.currency)
      if (code) assets.set(code, (assets.get(code) ?? 0n) + holding.amountMinor)
    }
    return {
      attested_by: attestation.attestedBy,
      attested_at: attestation.attestedAt.toISOString(),
      currencies: reserveLines(assets, liabilities, currencies),
    }
  }

  /** Whether a tenant that signs proofs has none for `now`'s day yet. */
  async dayUnpublished(now: Date): Promise<boolean> {
    const day = utcDay(now)
    for (const tenantId of await repo.tenantsWithKeys(this.db)) {
      if (!(await repo.findSnapshotOfDay(this.db, tenantId, day))) return true
    }
    return false
  }

  /**
   * The published roots, newest first.
   * @throws ProofReadError TENANT_NOT_FOUND
   */
  async roots(tenantId: string, page: { limit: number; offset: number }) {
    await this.#requireTenant(tenantId)
    const rows = await repo.snapshotsPage(this.db, tenantId, page)
    const data = rows.slice(0, page.limit).map(toRoot)
    const isLast = rows.length <= page.limit
    return {
      data,
      ...(isLast && { total: page.offset + data.length }),
      limit: page.limit,
      offset: page.offset,
      is_last_page: isLast,
    }
  }

  /**
   * The tenant's current public key.
   * @throws ProofReadError TENANT_NOT_FOUND, PROOF_KEY_NOT_FOUND
   */
  async key(tenantId: string): Promise<ProofKey> {
    await this.#requireTenant(tenantId)
    const key = await this.keys.current(tenantId)
    if (!key) throw new ProofReadError({ kind: 'PROOF_KEY_NOT_FOUND', tenantId })
    return {
      tenant_id: tenantId,
      key_id: key.keyId,
      algorithm: 'Ed25519',
      public_key_pem: key.publicKeyPem,
      created_at: key.createdAt.toISOString(),
    }
  }

  /**
   * The person's leaf and path in the newest snapshot, and their balances then.
   * @throws ProofReadError PROOF_NOT_PUBLISHED, NOT_IN_PROOF
   */
  async mine(owner: Owner): Promise<MyProof> {
    const snapshot = await repo.latestSnapshot(this.db, owner.tenantId)
    if (!snapshot) throw new ProofReadError({ kind: 'PROOF_NOT_PUBLISHED' })
    const leaf = await repo.findLeaf(this.db, snapshot.id, owner.userId)
    if (!leaf) throw new ProofReadError({ kind: 'NOT_IN_PROOF', takenAt: snapshot.taken_at })
    const steps = siblingsOf(leaf.position, depthOf(snapshot.leaf_count))
    const nodes = await repo.findNodes(this.db, snapshot.id, [
      { level: 0, position: leaf.position },
      ...steps,
    ])
    const at = (level: number, position: number) => {
      const node = nodes.find((row) => row.level === level && row.position === position)
      if (!node) throw new Error(`node ${level}/${position} of snapshot ${snapshot.id} is missing`)
      return node
    }
    return {
      root: toRoot(snapshot),
      leaf: { nonce: leaf.nonce, sums: at(0, leaf.position).sums },
      path: steps.map((step) => {
        const { hash, sums } = at(step.level, step.position)
        return { side: step.side, hash, sums }
      }),
      balances_at_snapshot: leaf.balances,
    }
  }

  async #requireTenant(tenantId: string) {
    if (!(await repo.tenantExists(this.db, tenantId))) {
      throw new ProofReadError({ kind: 'TENANT_NOT_FOUND', tenantId })
    }
  }
}

/**
 * The catalogue by code: a token on several chains is one currency of the
 * proof (people hold "USDT", whichever chain it came by), so its chains must
 * agree on its decimals.
 */
function byCode(catalogue: readonly repo.CurrencyRow[]): Currency[] {
  const decimals = new Map<string, number>()
  for (const { code, decimals: places } of catalogue) {
    const known = decimals.get(code)
    if (known !== undefined && known !== places) {
      throw new Error(`${code} has ${known} decimals on one chain and ${places} on another`)
    }
    decimals.set(code, places)
  }
  return [...decimals]
    .map(([code, places]) => ({ code, decimals: places }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
}
