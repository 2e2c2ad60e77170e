import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { seedTenants } from './service.ts'

/**
 * The demo tenant the app talks to unless configured otherwise (docs/architecture.md),
 * configured from server/db/tenants.seed.json until an operator changes it,
 * with its card programs: made at boot, once the database is open.
 */
export default fp(
  async function tenantSeed(app: FastifyInstance) {
    await seedTenants(app.db)
  },
  { name: 'tenant-seed', dependencies: ['db'] },
)
