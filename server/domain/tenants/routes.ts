import { createHash } from 'node:crypto'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { TenantConfig } from '../../../contract/tenants.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { TenantError } from './errors.ts'
import { toConfig } from './service.ts'

/** The one switch from tenant failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof TenantError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    // The tenant was checked by the scope a moment ago; only a deletion in between lands here.
    case 'TENANT_NOT_FOUND':
      return new ProblemError(404, failure.kind, `There is no tenant ${failure.tenantId}.`)
    // Creating and updating are the CLI's (cli.ts); these routes only read, so never land here.
    case 'TENANT_EXISTS':
      return new ProblemError(409, failure.kind, `A tenant ${failure.tenantId} exists already.`)
    case 'INVALID_SETTINGS':
      return new ProblemError(
        422,
        failure.kind,
        failure.faults.map((f) => `${f.field} ${f.message}`).join('; '),
        { title: 'Unprocessable Content', errors: failure.faults },
      )
    default:
      return assertNever(failure)
  }
}

/** A strong validator of the exact JSON sent: equal bodies, equal tags. */
const etagOf = (body: string) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`

/** `If-None-Match` names this tag (or `*`), weak or strong, in a list or alone. */
const matches = (header: string | undefined, etag: string) =>
  header?.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag
  }) === true

/** v2: the configuration of the tenant the request names (X-Tenant-Id). Public. */
export default async function tenantRoutes(app: FastifyInstance) {
  const service = app.services.tenants
  const publicKey = app.services.cardCrypto.publicKeyPem
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/tenants/config',
    {
      // Public: the sign-in screen wears the tenant's colours before anyone
      // signs in, and nothing in it is a secret (the card key is a public key).
      schema: {
        tags: ['tenants'],
        summary: 'The tenant’s branding, products, wallet types, countries and contacts',
        description:
          'For the tenant of `X-Tenant-Id`; no sign-in needed. An unknown tenant is 404 ' +
          'TENANT_NOT_FOUND. A product that is false here answers 403 PRODUCT_DISABLED on its ' +
          'calls. Sent with an `ETag` and `Cache-Control: public, no-cache`: send ' +
          '`If-None-Match` and an unchanged config answers 304 with no body.',
        headers: Type.Object({ 'if-none-match': Type.Optional(Type.String()) }),
        response: {
          200: TenantConfig,
          304: Type.Null({ description: 'Not modified: no body' }),
          400: Problem,
          404: Problem,
        },
      },
    },
    async (request, reply) => {
      const tenant = await translateErrors(service.show(request.tenantId), toProblem)
      const body = JSON.stringify(toConfig(tenant, publicKey))
      const etag = etagOf(body)
      reply
        .header('etag', etag)
        // Stored by the browser but asked again each time: a product switched
        // off shows at the next request; offline, the app has its persisted copy.
        .header('cache-control', 'public, no-cache')
        .header('vary', 'X-Tenant-Id')
      // No body at all, not the serialised `null` of the 304 schema (which is there for the docs).
      if (matches(request.headers['if-none-match'], etag))
        return reply
          .code(304)
          .removeHeader('content-type')
          .send('' as unknown as null)
      // Already JSON (the tag is of these bytes): Fastify sends a JSON string as it is.
      return reply.type('application/json; charset=utf-8').send(body as unknown as TenantConfig)
    },
  )
}
