import type { Kysely } from 'kysely'
import { seedTenants } from '../../domain/tenants/service.ts'
import type { DB } from './schema.ts'

/**
 * The demo tenant the app talks to unless configured otherwise (DESIGN.md),
 * configured from server/db/tenants.seed.json until an operator changes it,
 * with its card programs.
 */
export async function ensureDemoTenant(db: Kysely<DB>): Promise<void> {
  await seedTenants(db)
}
