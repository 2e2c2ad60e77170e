import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { APP_ENV_HEADER, APP_ENVS, type AppEnv, TENANT_HEADER } from '../../contract/tenancy.ts'
import { ProblemError } from './problem.ts'
import { isUuid } from './uuid.ts'

declare module 'fastify' {
  interface FastifyRequest {
    tenantId: string
    appEnv: AppEnv
  }
  interface FastifyInstance {
    /** onRequest hook for the API scopes: every call names its tenant and app environment. */
    requireTenant: (request: FastifyRequest) => Promise<void>
    /**
     * onRequest hook for the sandbox's outside parties (the chain, the bank), which
     * need not name a tenant: request.tenantId is the one named, or '' for none. A
     * tenant named that is not the record's answers as a missing record, in the service.
     */
    readTenant: (request: FastifyRequest) => Promise<void>
  }
}

/** The tenant a call names in its header, as sent, or undefined. */
function namedTenant(request: FastifyRequest): string | undefined {
  const tenantId = request.headers[TENANT_HEADER]
  return typeof tenantId === 'string' && tenantId !== '' ? tenantId : undefined
}

/** Tenants are few and change rarely; a minute of staleness is acceptable. */
const CACHE_TTL_MS = 60_000

export default fp(
  async function tenancy(app: FastifyInstance) {
    const known = new Map<string, number>()

    async function tenantExists(id: string): Promise<boolean> {
      const checkedAt = known.get(id)
      if (checkedAt !== undefined && Date.now() - checkedAt < CACHE_TTL_MS) return true
      const row = await app.db
        .selectFrom('tenants')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()
      if (row) known.set(id, Date.now())
      return row !== undefined
    }

    app.decorateRequest('tenantId', '')
    app.decorateRequest('appEnv', 'web')
    app.decorate('readTenant', async (request: FastifyRequest) => {
      request.tenantId = namedTenant(request)?.toLowerCase() ?? ''
    })
    app.decorate('requireTenant', async (request: FastifyRequest) => {
      const tenantId = namedTenant(request)
      const appEnv = request.headers[APP_ENV_HEADER]
      if (tenantId === undefined) {
        throw new ProblemError(400, 'TENANT_REQUIRED', `The ${TENANT_HEADER} header is required.`)
      }
      if (!isUuid(tenantId)) {
        throw new ProblemError(400, 'TENANT_INVALID', `The ${TENANT_HEADER} header must be a UUID.`)
      }
      if (typeof appEnv !== 'string' || !(APP_ENVS as readonly string[]).includes(appEnv)) {
        throw new ProblemError(
          400,
          'APP_ENV_INVALID',
          `The ${APP_ENV_HEADER} header must be one of: ${APP_ENVS.join(', ')}.`,
        )
      }
      if (!(await tenantExists(tenantId))) {
        throw new ProblemError(404, 'TENANT_NOT_FOUND', `There is no tenant ${tenantId}.`)
      }
      // Lower-cased here, once: services compare tenant ids as the database stores them.
      request.tenantId = tenantId.toLowerCase()
      request.appEnv = appEnv as AppEnv
    })
  },
  { name: 'tenancy', dependencies: ['db'] },
)
