import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keyIdOf } from '../../contract/balance-proof.ts'
import {
  newKeyPair,
  PROOF_TENANT,
  proofKeyOf,
  signedProof,
} from '../../tests/support/proof-fixtures.ts'
import { openPinnedKeys } from '../storage/pinned-keys.ts'
import { checksOf, createProofVerifier } from './proof-verify.ts'

const first = newKeyPair()
const second = newKeyPair()
const MONDAY = new Date('2026-11-30T08:00:00.000Z')

/** A verifier on a pinned-key store of its own: fake-indexeddb lives as long as the file. */
function device(at = MONDAY) {
  const pins = openPinnedKeys(`pinned-keys-${randomUUID()}`)
  return { pins, verifier: createProofVerifier(pins, () => at) }
}

describe('the proof worker', () => {
  it('pins the key on the first good check, and checks against it after', async () => {
    const { pins, verifier } = device()
    const request = { tenantId: PROOF_TENANT, proof: signedProof(first), key: proofKeyOf(first) }
    expect(await verifier.verify(request)).toEqual({
      ok: true,
      keyId: keyIdOf(first.publicKey),
      pinnedAt: MONDAY.toISOString(),
      firstUse: true,
      checks: { place: 'passed', sums: 'passed', signature: 'passed', balances: 'passed' },
    })
    expect(await pins.get(PROOF_TENANT)).toEqual({
      keyId: keyIdOf(first.publicKey),
      pinnedAt: MONDAY.toISOString(),
    })
    expect(await verifier.verify(request)).toMatchObject({ ok: true, firstUse: false })
  })

  it('refuses a changed key with its own reason, naming both', async () => {
    const { verifier } = device()
    await verifier.verify({
      tenantId: PROOF_TENANT,
      proof: signedProof(first),
      key: proofKeyOf(first),
    })
    const rotated = { tenantId: PROOF_TENANT, proof: signedProof(second), key: proofKeyOf(second) }
    expect(await verifier.verify(rotated)).toMatchObject({
      ok: false,
      failure: 'key_changed',
      keyId: keyIdOf(second.publicKey),
      pinnedKeyId: keyIdOf(first.publicKey),
    })

    // The person accepts it: pinned from now on, and the proof checks.
    expect(await verifier.trust(rotated)).toMatchObject({
      ok: true,
      keyId: keyIdOf(second.publicKey),
    })
    expect(await verifier.verify(rotated)).toMatchObject({ ok: true, firstUse: false })
  })

  it('pins nothing when the first check fails, and never trusts a key that does not verify', async () => {
    const { pins, verifier } = device()
    const stale = { tenantId: PROOF_TENANT, proof: signedProof(second), key: proofKeyOf(first) }
    expect(await verifier.verify(stale)).toMatchObject({ ok: false, failure: 'stale_key' })
    expect(await verifier.trust(stale)).toMatchObject({ ok: false, failure: 'stale_key' })
    expect(await pins.get(PROOF_TENANT)).toBeUndefined()
  })
})

describe('the checks as the screen lists them', () => {
  it.each([
    [
      'hash_mismatch',
      { place: 'failed', sums: 'skipped', signature: 'skipped', balances: 'skipped' },
    ],
    [
      'negative_sum',
      { place: 'skipped', sums: 'failed', signature: 'skipped', balances: 'skipped' },
    ],
    [
      'sums_mismatch',
      { place: 'passed', sums: 'failed', signature: 'skipped', balances: 'skipped' },
    ],
    ['key_changed', { place: 'passed', sums: 'passed', signature: 'failed', balances: 'skipped' }],
    [
      'balances_mismatch',
      { place: 'passed', sums: 'passed', signature: 'passed', balances: 'failed' },
    ],
  ] as const)('%s', (failure, checks) => {
    expect(checksOf(failure)).toEqual(checks)
  })
})
