import {
  keyIdOf,
  PROOF_FAILURES,
  type ProofFailure,
  publicKeyFromPem,
  verifyProof,
} from '../../contract/balance-proof.ts'
import type { MyProof, ProofKey } from '../../contract/proofs.ts'
import type { PinnedKeys } from '../storage/pinned-keys.ts'
import type { Check, CheckStatus } from './proof-checks.ts'

/*
 * The proof-of-balances check (issue 33) without the thread around it:
 * proof-verify.worker.ts runs it in a worker, tests run it as it is. It needs
 * no network: the proof and the key come from the page's (persisted) query
 * cache, the pinned key from IndexedDB, and the check is contract/balance-proof.ts.
 */

export interface VerifyRequest {
  tenantId: string
  proof: MyProof
  key: ProofKey
}

/** Which check each reason of the verifier fails. */
const CHECK_OF: Record<ProofFailure, Check> = {
  malformed: 'place',
  wrong_tenant: 'place',
  wrong_depth: 'place',
  hash_mismatch: 'place',
  negative_sum: 'sums',
  sums_mismatch: 'sums',
  key_changed: 'signature',
  stale_key: 'signature',
  bad_signature: 'signature',
  balances_mismatch: 'balances',
}

/**
 * Each check's outcome: all passed, or the failing one failed, those whose
 * every reason the verifier ruled out before it passed, the rest not run.
 */
export function checksOf(failure?: ProofFailure): Record<Check, CheckStatus> {
  const at = failure === undefined ? PROOF_FAILURES.length : PROOF_FAILURES.indexOf(failure)
  const status = (check: Check): CheckStatus => {
    if (failure !== undefined && CHECK_OF[failure] === check) return 'failed'
    const reasons = PROOF_FAILURES.filter((reason) => CHECK_OF[reason] === check)
    return reasons.every((reason) => PROOF_FAILURES.indexOf(reason) < at) ? 'passed' : 'skipped'
  }
  return {
    place: status('place'),
    sums: status('sums'),
    signature: status('signature'),
    balances: status('balances'),
  }
}

/** Plain data: it crosses the thread boundary by structured clone. */
export type Verdict =
  | {
      ok: true
      keyId: string
      /** When this device pinned the key. */
      pinnedAt: string
      /** This check pinned it: the device had trusted no key of the tenant before. */
      firstUse: boolean
      checks: Record<Check, CheckStatus>
    }
  | {
      ok: false
      failure: ProofFailure
      detail: string
      /** The fingerprint of the key offered now; undefined when it is not a key. */
      keyId: string | undefined
      /** The fingerprint this device trusts; undefined before the first good check. */
      pinnedKeyId: string | undefined
      checks: Record<Check, CheckStatus>
    }

const fingerprint = (pem: string) => {
  const raw = publicKeyFromPem(pem)
  return raw && keyIdOf(raw)
}

export function createProofVerifier(pins: PinnedKeys, now: () => Date = () => new Date()) {
  /** The check, against `pinnedKeyId` when given; a refusal names both keys. */
  const check = (request: VerifyRequest, pinnedKeyId: string | undefined) => {
    const verdict = verifyProof({
      tenantId: request.tenantId,
      proof: request.proof,
      publicKeyPem: request.key.public_key_pem,
      pinnedKeyId,
    })
    if (verdict.ok) return verdict
    return {
      ok: false as const,
      failure: verdict.failure,
      detail: verdict.detail,
      keyId: fingerprint(request.key.public_key_pem),
      pinnedKeyId,
      checks: checksOf(verdict.failure),
    }
  }

  return {
    /**
     * Checks the proof against the key, and the key against the one pinned on
     * this device. The first good check pins the key (trust on first use); a
     * failed one pins nothing.
     */
    async verify(request: VerifyRequest): Promise<Verdict> {
      const pinned = await pins.get(request.tenantId)
      const verdict = check(request, pinned?.keyId)
      if (!verdict.ok) return verdict
      const passed = { ok: true as const, keyId: verdict.keyId, checks: checksOf() }
      if (pinned) return { ...passed, pinnedAt: pinned.pinnedAt, firstUse: false }
      const fresh = await pins.pin(request.tenantId, verdict.keyId, now())
      return { ...passed, pinnedAt: fresh.pinnedAt, firstUse: true }
    },

    /**
     * The person accepts the tenant's new key: it is pinned instead of the old
     * one, but only when it verifies this proof — a key that does not is never
     * trusted.
     */
    async trust(request: VerifyRequest): Promise<Verdict> {
      const pinned = await pins.get(request.tenantId)
      const verdict = check(request, undefined)
      if (!verdict.ok) return { ...verdict, pinnedKeyId: pinned?.keyId }
      const fresh = await pins.pin(request.tenantId, verdict.keyId, now())
      return {
        ok: true,
        keyId: verdict.keyId,
        pinnedAt: fresh.pinnedAt,
        firstUse: false,
        checks: checksOf(),
      }
    },
  }
}

export type ProofVerifier = ReturnType<typeof createProofVerifier>
