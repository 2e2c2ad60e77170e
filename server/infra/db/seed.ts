import type { Kysely } from 'kysely'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { ensureDefaultPrograms } from '../../domain/fiat-accounts/service.ts'
import type { DB } from './schema.ts'

/** The demo tenant the app talks to unless configured otherwise (DESIGN.md), with its card programs. */
export async function ensureDemoTenant(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('tenants')
    .values({ id: DEMO_TENANT_ID, name: 'Demo' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  await ensureDefaultPrograms(db, DEMO_TENANT_ID)
}
