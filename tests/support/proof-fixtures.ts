import { ed25519 } from '@noble/curves/ed25519.js'
import {
  addSums,
  formatSums,
  keyIdOf,
  leafHash,
  nodeHash,
  parseSums,
  rootMessage,
} from '../../contract/balance-proof.ts'
import type { MyProof, ProofKey } from '../../contract/proofs.ts'

/*
 * A person's signed proof of balances, built here by the spelling of
 * docs/api.md rather than by the server: the verifier's and the app's tests
 * check against it, the server's against the server's own.
 */

export const PROOF_TENANT = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
export const PROOF_SNAPSHOT = '019ad2f0-0000-7000-8000-000000000001'
export const PROOF_TAKEN_AT = '2026-11-29T00:00:05.123Z'

export type KeyPair = ReturnType<typeof ed25519.keygen>
export const newKeyPair = (): KeyPair => ed25519.keygen()

export const testNonce = (n: number) => n.toString(16).padStart(64, '0')

export function pemOf(publicKey: Uint8Array): string {
  const der = new Uint8Array([
    ...[0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00],
    ...publicKey,
  ])
  const base64 = btoa(String.fromCharCode(...der))
  return `-----BEGIN PUBLIC KEY-----\n${base64}\n-----END PUBLIC KEY-----\n`
}

/** GET /api/proofs/{tenant_id}/key for a key pair. */
export const proofKeyOf = (pair: KeyPair): ProofKey => ({
  tenant_id: PROOF_TENANT,
  key_id: keyIdOf(pair.publicKey),
  algorithm: 'Ed25519',
  public_key_pem: pemOf(pair.publicKey),
  created_at: '2026-11-01T00:00:00.000Z',
})

interface Node {
  hash: string
  sums: string
}

export interface TestLeaf {
  nonce: string
  sums: string
}

/** Four leaves: the first is the person's (€1,948.00 and 0.01275277 BTC). */
export const TEST_LEAVES: TestLeaf[] = [
  { nonce: testNonce(1), sums: 'BTC:1275277,EUR:194800' },
  { nonce: testNonce(2), sums: 'BTC:0,EUR:5000' },
  { nonce: testNonce(3), sums: 'BTC:0,EUR:0' },
  { nonce: testNonce(4), sums: 'BTC:100,EUR:1' },
]

const PLACES: Record<string, number> = { BTC: 8, EUR: 2 }

/** What the screen shows for a leaf: its non-zero sums, all in one Personal wallet. */
export function balancesOf(sums: string): MyProof['balances_at_snapshot'] {
  return parseSums(sums)!
    .filter(([, amount]) => amount !== 0n)
    .map(([code, amount]) => {
      const places = PLACES[code]!
      const digits = amount.toString().padStart(places + 1, '0')
      const text = `${digits.slice(0, -places)}.${digits.slice(-places)}`
      return {
        currency: code,
        amount: text,
        parts: [
          {
            source: 'wallet' as const,
            id: '019ad2f0-0000-7000-8000-0000000000aa',
            wallet_type: 'personal' as const,
            program_name: null,
            account_last4: null,
            amount: text,
          },
        ],
      }
    })
}

/**
 * The signed proof of `leaves[mine]` in a four-leaf tree. `rootSums` and
 * `keyId` override what the root states, for a root the verifier must refuse
 * although its signature is good.
 */
export function signedProof(
  key: KeyPair,
  options: { leaves?: TestLeaf[]; mine?: number; rootSums?: string; keyId?: string } = {},
): MyProof {
  const leaves = options.leaves ?? TEST_LEAVES
  const mine = options.mine ?? 0
  const hashed = leaves.map((leaf) => ({
    hash: leafHash(PROOF_TENANT, PROOF_SNAPSHOT, leaf.nonce, leaf.sums),
    sums: leaf.sums,
  }))
  const up = (a: Node, b: Node): Node => ({
    hash: nodeHash(a, b),
    sums: formatSums(addSums(parseSums(a.sums)!, parseSums(b.sums)!)!),
  })
  const level1 = [up(hashed[0]!, hashed[1]!), up(hashed[2]!, hashed[3]!)]
  const top = up(level1[0]!, level1[1]!)
  const root = {
    tenant_id: PROOF_TENANT,
    snapshot_id: PROOF_SNAPSHOT,
    taken_at: PROOF_TAKEN_AT,
    leaf_count: 4,
    hash: top.hash,
    sums: options.rootSums ?? top.sums,
  }
  const signature = ed25519.sign(new TextEncoder().encode(rootMessage(root)), key.secretKey)
  const sibling = hashed[mine ^ 1]!
  const uncle = level1[(mine >> 1) ^ 1]!
  return {
    root: {
      ...root,
      signature: btoa(String.fromCharCode(...signature)),
      key_id: options.keyId ?? keyIdOf(key.publicKey),
      reserves: null,
    },
    leaf: leaves[mine]!,
    path: [
      { side: mine % 2 === 0 ? 'right' : 'left', hash: sibling.hash, sums: sibling.sums },
      { side: (mine >> 1) % 2 === 0 ? 'right' : 'left', hash: uncle.hash, sums: uncle.sums },
    ],
    balances_at_snapshot: balancesOf(leaves[mine]!.sums),
  }
}
