import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { MyProof, ProofKey, PublishedRootPage, RootsQuery } from '../../../contract/proofs.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { ProofReadError } from './errors.ts'

/** The one switch from proof reads' failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof ProofReadError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'TENANT_NOT_FOUND':
      return new ProblemError(404, failure.kind, `There is no tenant ${failure.tenantId}.`)
    case 'PROOF_KEY_NOT_FOUND':
      return new ProblemError(
        404,
        failure.kind,
        `Tenant ${failure.tenantId} has no proof key yet, so it has published no proof.`,
      )
    case 'PROOF_NOT_PUBLISHED':
      return new ProblemError(
        404,
        failure.kind,
        'No proof of balances has been published yet: one is published every day.',
      )
    case 'NOT_IN_PROOF':
      return new ProblemError(
        404,
        failure.kind,
        `You joined after the newest proof was taken (${failure.takenAt.toISOString()}): the next daily proof includes you.`,
      )
    default:
      return assertNever(failure)
  }
}

const TenantParams = Type.Object({ tenant_id: Type.String({ format: 'uuid' }) })

/**
 * The roots change once a day and a key far less often: shared caches may
 * keep them a while, and serve them stale while they ask again.
 */
const ROOTS_CACHE = 'public, max-age=300, stale-while-revalidate=3600'
const KEY_CACHE = 'public, max-age=3600, stale-while-revalidate=86400'

/**
 * Issue 33, public: anyone may fetch a tenant's signed roots and its key, to
 * check a proof without the app. Outside the two API bases (the tenant is in
 * the path, no header, no session), and cacheable.
 */
export default async function proofRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/proofs/:tenant_id/roots',
    {
      schema: {
        tags: ['proofs'],
        summary: 'The tenant’s published proof-of-balances roots, newest first',
        description:
          'One signed root a day, each with the id of the key that signed it and the reserves ' +
          'attested when it was taken. No sign-in, no tenant header; an unknown tenant is 404 ' +
          'TENANT_NOT_FOUND. `Cache-Control: public, max-age=300`. docs/api.md spells the ' +
          'encoding to check a root by.',
        params: TenantParams,
        querystring: RootsQuery,
        response: { 200: PublishedRootPage, 404: Problem, 422: Problem },
      },
    },
    async (request, reply) => {
      const page = await translateErrors(
        app.proofs.roots(request.params.tenant_id, request.query),
        toProblem,
      )
      reply.header('cache-control', ROOTS_CACHE)
      return page
    },
  )

  api.get(
    '/proofs/:tenant_id/key',
    {
      schema: {
        tags: ['proofs'],
        summary: 'The tenant’s current proof key (Ed25519), as PEM, with its id',
        description:
          'The key roots are signed with. Its id is the first 16 bytes of SHA-256 over the raw ' +
          '32-byte key, in hex: the fingerprint the app pins on first use. 404 ' +
          'TENANT_NOT_FOUND, or PROOF_KEY_NOT_FOUND before the tenant made one. ' +
          '`Cache-Control: public, max-age=3600`.',
        params: TenantParams,
        response: { 200: ProofKey, 404: Problem, 422: Problem },
      },
    },
    async (request, reply) => {
      const key = await translateErrors(app.proofs.key(request.params.tenant_id), toProblem)
      reply.header('cache-control', KEY_CACHE)
      return key
    },
  )
}

/** v2: the signed-in person's own proof. Protected. */
export async function myProofRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/proofs/latest/mine',
    {
      schema: {
        tags: ['proofs'],
        summary: 'The person’s leaf and path in the newest proof of balances',
        description:
          'The root (with its reserves), the person’s leaf (its nonce is theirs alone), the ' +
          'siblings from the leaf up (`side`: where the sibling sits), and the balances the ' +
          'leaf’s sums are made of. 404 PROOF_NOT_PUBLISHED before the first snapshot, ' +
          'NOT_IN_PROOF for someone who joined after the newest one.',
        response: { 200: MyProof, 401: Problem, 404: Problem, 423: Problem },
      },
    },
    async (request, reply) => {
      const proof = await translateErrors(app.proofs.mine(request.auth), toProblem)
      // The person's own nonce and balances: never in a shared cache.
      reply.header('cache-control', 'private, no-cache')
      return proof
    },
  )
}
