import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import {
  formatSums,
  keyIdOf,
  leafHash,
  nodeHash,
  type ProofFailure,
  parseSums,
  publicKeyFromPem,
  rootMessage,
  verifyProof,
} from '../../contract/balance-proof.ts'
import type { MyProof } from '../../contract/proofs.ts'
import {
  balancesOf,
  newKeyPair,
  testNonce as nonce,
  pemOf,
  PROOF_SNAPSHOT as SNAPSHOT,
  signedProof,
  PROOF_TAKEN_AT as TAKEN_AT,
  PROOF_TENANT as TENANT,
  TEST_LEAVES,
} from '../../tests/support/proof-fixtures.ts'

/*
 * contract/balance-proof.ts, the verifier this folder's worker runs
 * (proof-verify.ts), one case per reason, on proofs built by the spelling of
 * docs/api.md (tests/support/proof-fixtures.ts); the server's tests run it on
 * the server's own proofs. Here rather than beside it: contract/ imports
 * nothing of ours, test fixtures included.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const signer = newKeyPair()
const other = newKeyPair()
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
    for (const mine of TEST_LEAVES.keys()) {
      const proof = signedProof(signer, { mine })
      expect(verify(proof)).toEqual({
        ok: true,
        keyId: KEY_ID,
        sums: parseSums(TEST_LEAVES[mine]!.sums),
      })
      expect(verify(proof, { pinned: KEY_ID }).ok).toBe(true)
    }
  })

  const honest = signedProof(signer)
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
        signedProof(signer, {
          leaves: [
            TEST_LEAVES[0]!,
            { nonce: nonce(2), sums: 'BTC:0,EUR:-5000' },
            ...TEST_LEAVES.slice(2),
          ],
        }),
      ],
      'negative_sum',
    ],
    [
      'a root whose sums do not add up, signed',
      () => [signedProof(signer, { rootSums: 'BTC:1275377,EUR:100' })],
      'sums_mismatch',
    ],
    ['a wrong signature', () => [signedProof(other, { keyId: KEY_ID })], 'bad_signature'],
    ['a stale key: the root names another', () => [signedProof(other)], 'stale_key'],
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
  it('catches the summation flaw: one root cannot show each of two people the other as empty', () => {
    // Two people of 10.00 each under one parent; a root committing to the
    // children's total alone (Maxwell's) could claim 10.00 and show each the
    // other as empty. Both children's sums are in the parent's hash: the root
    // taken from Ana's view is not Bo's.
    const [ana, bo] = [TEST_LEAVES[1]!, { nonce: nonce(7), sums: 'BTC:0,EUR:5000' }]
    const empty = 'BTC:0,EUR:0'
    const leafOf = (leaf: typeof ana) => leafHash(TENANT, SNAPSHOT, leaf.nonce, leaf.sums)
    const root = {
      tenant_id: TENANT,
      snapshot_id: SNAPSHOT,
      taken_at: TAKEN_AT,
      leaf_count: 2,
      hash: nodeHash({ hash: leafOf(ana), sums: ana.sums }, { hash: leafOf(bo), sums: empty }),
      sums: ana.sums,
    }
    const signature = btoa(
      String.fromCharCode(
        ...ed25519.sign(new TextEncoder().encode(rootMessage(root)), signer.secretKey),
      ),
    )
    const signed = { ...root, signature, key_id: KEY_ID, reserves: null }
    const proofOf = (leaf: typeof ana, sibling: typeof ana, side: 'left' | 'right'): MyProof => ({
      root: signed,
      leaf,
      path: [{ side, hash: leafOf(sibling), sums: empty }],
      balances_at_snapshot: balancesOf(leaf.sums),
    })
    expect(verify(proofOf(ana, bo, 'right'))).toMatchObject({ ok: true })
    expect(verify(proofOf(bo, ana, 'left'))).toMatchObject({ ok: false, failure: 'hash_mismatch' })
  })

  it.each(cases)('refuses %s', (_name, input, failure) => {
    const [proof, overrides] = input()
    expect(verify(proof, overrides)).toMatchObject({ ok: false, failure })
  })
})
