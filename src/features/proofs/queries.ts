import { queryOptions } from '@tanstack/react-query'
import type { MyProof, ProofKey } from '../../../contract/proofs.ts'
import { ApiError, api } from '../../net/api.ts'
import { netConfig } from '../../net/config.ts'

/** Query keys of this feature, never literals. */
export const proofKeys = {
  all: ['proofs'] as const,
  mine: () => [...proofKeys.all, 'mine'] as const,
  key: (tenantId: string) => [...proofKeys.all, 'key', tenantId] as const,
  verdict: (snapshotId: string, nonce: string, keyId: string) =>
    [...proofKeys.all, 'verdict', snapshotId, nonce, keyId] as const,
}

/** A proof is published once a day: an hour-old copy is as good as a new one. */
const PROOF_STALE = 60 * 60 * 1000

/**
 * The person's leaf and path in the newest proof. Persisted with the rest of
 * the cache (the nonce is the person's own, on their own device), so the
 * check runs again offline.
 */
export const myProofQuery = () =>
  queryOptions({
    queryKey: proofKeys.mine(),
    queryFn: ({ signal }) => api.v2.get<MyProof>('/proofs/latest/mine', { signal }),
    staleTime: PROOF_STALE,
  })

/**
 * The public routes sit beside the v2 base (`/api/proofs/…` next to
 * `/api/v2`), wherever that base is served from.
 */
const keyUrl = (tenantId: string) =>
  new URL(
    `../proofs/${tenantId}/key`,
    new URL(`${netConfig.v2Base.replace(/\/$/, '')}/`, globalThis.location.href),
  )

/** The tenant's public key, as anyone reads it: no session, cacheable, persisted for offline. */
export const proofKeyQuery = (tenantId: string) =>
  queryOptions({
    queryKey: proofKeys.key(tenantId),
    queryFn: async ({ signal }) => {
      const response = await fetch(keyUrl(tenantId), { signal })
      if (!response.ok) {
        throw new ApiError(response.status, await response.json().catch(() => undefined))
      }
      return (await response.json()) as ProofKey
    },
    staleTime: PROOF_STALE,
  })
