import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import {
  addSums,
  formatSums,
  keyIdOf,
  leafHash,
  nodeHash,
  type ProofFailure,
  parseSums,
  publicKeyFromPem,
  rootMessage,
  verifyProof,
} from './balance-proof.ts'
import type { MyProof } from './proofs.ts'

/*
 * The verifier the app's worker runs (src/workers/proof-verify.ts), one case
 * per reason; the server's tests run it on the server's own proofs.
 */

const TENANT = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
const SNAPSHOT = '019ad2f0-0000-7000-8000-000000000001'
const TAKEN_AT = '2026-11-29T00:00:05.123Z'
const nonce = (n: number) => n.toString(16).padStart(64, '0')
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

function pemOf(publicKey: Uint8Array) {
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey])
  return `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`
}

const signer = ed25519.keygen()
const other = ed25519.keygen()

interface Leaf {
  nonce: string
  sums: string
}

/**
 * A signed proof for `leaves[mine]` of a four-leaf tree, built here by the
 * spelling of docs/api.md; `rootSums` and `keyId` overridden make a root the
 * verifier must refuse although its signature is good.
 */
function proofOf(
  leaves: Leaf[],
  mine: number,
  options: { rootSums?: string; key?: typeof signer; keyId?: string } = {},
): MyProof {
  const hashed = leaves.map((leaf) => ({
    hash: leafHash(TENANT, SNAPSHOT, leaf.nonce, leaf.sums),
    sums: leaf.sums,
  }))
  const up = (a: (typeof hashed)[number], b: (typeof hashed)[number]) => ({
    hash: nodeHash(a, b),
    sums: formatSums(addSums(parseSums(a.sums)!, parseSums(b.sums)!)!),
  })
  const level1 = [up(hashed[0]!, hashed[1]!), up(hashed[2]!, hashed[3]!)]
  const top = up(level1[0]!, level1[1]!)
  const key = options.key ?? signer
  const root = {
    tenant_id: TENANT,
    snapshot_id: SNAPSHOT,
    taken_at: TAKEN_AT,
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
      signature: Buffer.from(signature).toString('base64'),
      key_id: options.keyId ?? keyIdOf(key.publicKey),
      reserves: null,
    },
    leaf: leaves[mine]!,
    path: [
      { side: mine % 2 === 0 ? 'right' : 'left', ...sibling },
      { side: (mine >> 1) % 2 === 0 ? 'right' : 'left', ...uncle },
    ],
    balances_at_snapshot: balancesOf(leaves[mine]!.sums),
  }
}

/** What the screen shows for a leaf: its non-zero sums at the test currencies' decimals. */
function balancesOf(sums: string): MyProof['balances_at_snapshot'] {
  const places: Record<string, number> = { BTC: 8, EUR: 2 }
  return parseSums(sums)!
    .filter(([, amount]) => amount !== 0n)
    .map(([code, amount]) => {
      const digits = amount.toString().padStart(places[code]! + 1, '0')
      const text = `${digits.slice(0, -places[code]!)}.${digits.slice(-places[code]!)}`
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

const LEAVES: Leaf[] = [
  { nonce: nonce(1), sums: 'BTC:1275277,EUR:194800' },
  { nonce: nonce(2), sums: 'BTC:0,EUR:5000' },
  { nonce: nonce(3), sums: 'BTC:0,EUR:0' },
  { nonce: nonce(4), sums: 'BTC:100,EUR:1' },
]
const PEM = pemOf(signer.publicKey)
const KEY_ID = keyIdOf(signer.publicKey)

const verify = (
  proof: MyProof,
  overrides: { pem?: string; pinned?: string; tenant?: string } = {},
) =>
  verifyProof({
    tenantId: overrides.tenant ?? TENANT,
    proof,
    publicKeyPem: overrides.pem ?? PEM,
    pinnedKeyId: overrides.pinned,
  })

describe('the encoding', () => {
  it('spells a leaf, a node and the root message exactly as docs/api.md does', () => {
    expect(leafHash(TENANT, SNAPSHOT, nonce(1), 'BTC:1,EUR:2')).toBe(
      sha256(`leaf|${TENANT}|${SNAPSHOT}|${nonce(1)}|BTC:1,EUR:2`),
    )
    const left = { hash: 'a'.repeat(64), sums: 'BTC:1,EUR:2' }
    const right = { hash: 'b'.repeat(64), sums: 'BTC:3,EUR:0' }
    expect(nodeHash(left, right)).toBe(
      sha256(`node|${'a'.repeat(64)}|BTC:1,EUR:2|${'b'.repeat(64)}|BTC:3,EUR:0`),
    )
    expect(
      rootMessage({
        tenant_id: TENANT,
        snapshot_id: SNAPSHOT,
        taken_at: TAKEN_AT,
        leaf_count: 8,
        hash: 'c'.repeat(64),
        sums: 'BTC:4',
      }),
    ).toBe(`root|${TENANT}|${SNAPSHOT}|${TAKEN_AT}|8|${'c'.repeat(64)}|BTC:4`)
    // The key id: SHA-256 of the raw 32-byte key, its first 16 bytes in hex.
    expect(KEY_ID).toBe(createHash('sha256').update(signer.publicKey).digest('hex').slice(0, 32))
    expect(publicKeyFromPem(PEM)).toEqual(signer.publicKey)
  })

  it.each([
    ['BTC:1275277,EUR:194800,USDT:1224975000', true],
    ['USD:1,USDC:2,USDT:0', true],
    ['EUR:-5', true],
    ['EUR:05', false],
    ['EUR:-0', false],
    ['EUR:1,BTC:2', false],
    ['EUR:1,EUR:1', false],
    ['eur:1', false],
    ['EUR:1.5', false],
    ['EUR:1,', false],
    ['', false],
  ])('%s is a canonical spelling of sums: %s', (text, canonical) => {
    const sums = parseSums(text)
    expect(sums !== undefined).toBe(canonical)
    if (sums) expect(formatSums(sums)).toBe(text)
  })
})

describe('the verifier', () => {
  it('accepts every leaf’s proof of an honest tree', () => {
    for (const index of LEAVES.keys()) {
      expect(verify(proofOf(LEAVES, index))).toEqual({
        ok: true,
        keyId: KEY_ID,
        sums: parseSums(LEAVES[index]!.sums),
      })
      expect(verify(proofOf(LEAVES, index), { pinned: KEY_ID }).ok).toBe(true)
    }
  })

  const honest = proofOf(LEAVES, 0)
  const cases: [string, () => Parameters<typeof verify>, ProofFailure][] = [
    [
      'a tampered leaf',
      () => [{ ...honest, leaf: { ...honest.leaf, sums: 'BTC:1275277,EUR:194900' } }],
      'hash_mismatch',
    ],
    [
      'a tampered nonce',
      () => [{ ...honest, leaf: { ...honest.leaf, nonce: nonce(9) } }],
      'hash_mismatch',
    ],
    [
      'a sibling with a negative sum, hashed and signed as it is',
      () => [
        proofOf([LEAVES[0]!, { nonce: nonce(2), sums: 'BTC:0,EUR:-5000' }, ...LEAVES.slice(2)], 0),
      ],
      'negative_sum',
    ],
    [
      'a root whose sums do not add up, signed',
      () => [proofOf(LEAVES, 0, { rootSums: 'BTC:1275377,EUR:100' })],
      'sums_mismatch',
    ],
    [
      'a wrong signature',
      () => [proofOf(LEAVES, 0, { key: other, keyId: KEY_ID })],
      'bad_signature',
    ],
    [
      'a stale key: the root names another',
      () => [proofOf(LEAVES, 0, { key: other })],
      'stale_key',
    ],
    [
      'a key other than the pinned one',
      () => [honest, { pinned: keyIdOf(other.publicKey) }],
      'key_changed',
    ],
    [
      'another tenant’s root',
      () => [honest, { tenant: '00000000-0000-4000-8000-000000000000' }],
      'wrong_tenant',
    ],
    ['a path one step short', () => [{ ...honest, path: honest.path.slice(0, 1) }], 'wrong_depth'],
    [
      'balances shown that are not the leaf’s',
      () => [{ ...honest, balances_at_snapshot: balancesOf('BTC:1275277,EUR:194801') }],
      'balances_mismatch',
    ],
    [
      'a part missing from the balances shown',
      () => [
        {
          ...honest,
          balances_at_snapshot: honest.balances_at_snapshot.map((balance) => ({
            ...balance,
            parts: [],
          })),
        },
      ],
      'balances_mismatch',
    ],
    [
      'sums in another spelling',
      () => [{ ...honest, leaf: { ...honest.leaf, sums: 'EUR:194800,BTC:1275277' } }],
      'malformed',
    ],
    [
      'a key that is not Ed25519',
      () => [honest, { pem: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----' }],
      'malformed',
    ],
  ]
  it.each(cases)('refuses %s', (_name, input, failure) => {
    const [proof, overrides] = input()
    expect(verify(proof, overrides)).toMatchObject({ ok: false, failure })
  })
})
