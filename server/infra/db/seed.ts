import type { Kysely } from 'kysely'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { DB } from './schema.ts'

/** The demo tenant the app talks to unless configured otherwise (DESIGN.md). */
export async function ensureDemoTenant(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('tenants')
    .values({ id: DEMO_TENANT_ID, name: 'Demo' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}
