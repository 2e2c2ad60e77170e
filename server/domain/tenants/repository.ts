import type { Kysely, Selectable } from 'kysely'
import type { Products, TenantSettings } from '../../../contract/tenants.ts'
import type { DB, TenantsTable } from '../../infra/db/schema.ts'
import { productsFrom } from './rules.ts'

type Db = Kysely<DB>

export interface TenantRow {
  id: string
  settings: TenantSettings
  configuredAt: Date | null
  updatedAt: Date
}

const COLUMNS = [
  'id',
  'name',
  'primary_color',
  'accent_color',
  'logo_url',
  'products',
  'wallet_types',
  'default_display_currency',
  'supported_countries',
  'support_email',
  'support_phone',
  'support_url',
  'logout_url',
  'configured_at',
  'updated_at',
] as const

type Row = Pick<Selectable<TenantsTable>, (typeof COLUMNS)[number]>

const toTenant = (row: Row): TenantRow => ({
  id: row.id,
  settings: {
    name: row.name,
    primary_color: row.primary_color,
    accent_color: row.accent_color,
    logo_url: row.logo_url,
    products: productsFrom(row.products),
    wallet_types: row.wallet_types,
    default_display_currency: row.default_display_currency,
    supported_countries: row.supported_countries,
    support_email: row.support_email,
    support_phone: row.support_phone,
    support_url: row.support_url,
    logout_url: row.logout_url,
  },
  configuredAt: row.configured_at,
  updatedAt: row.updated_at,
})

/** The columns of the settings, JSON where the column is jsonb. */
const toColumns = (settings: TenantSettings) => ({
  name: settings.name,
  primary_color: settings.primary_color,
  accent_color: settings.accent_color,
  logo_url: settings.logo_url,
  products: JSON.stringify(settings.products),
  wallet_types: JSON.stringify(settings.wallet_types),
  default_display_currency: settings.default_display_currency,
  supported_countries:
    settings.supported_countries === null ? null : JSON.stringify(settings.supported_countries),
  support_email: settings.support_email,
  support_phone: settings.support_phone,
  support_url: settings.support_url,
  logout_url: settings.logout_url,
})

/** `lock`: FOR UPDATE, inside the transaction that writes the row back. */
export async function findTenant(
  db: Db,
  id: string,
  options: { lock?: boolean } = {},
): Promise<TenantRow | undefined> {
  let query = db.selectFrom('tenants').select(COLUMNS).where('id', '=', id)
  if (options.lock) query = query.forUpdate()
  const row = await query.executeTakeFirst()
  return row && toTenant(row)
}

/** Oldest first: the demo tenant, then in the order they were created. */
export async function listTenants(db: Db): Promise<TenantRow[]> {
  const rows = await db
    .selectFrom('tenants')
    .select(COLUMNS)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map(toTenant)
}

/** Only the products: what the product gate reads on every gated call. */
export async function findProducts(db: Db, id: string): Promise<Products | undefined> {
  const row = await db
    .selectFrom('tenants')
    .select('products')
    .where('id', '=', id)
    .executeTakeFirst()
  return row && productsFrom(row.products)
}

/** False when the id is taken. */
export async function insertTenant(
  db: Db,
  id: string,
  settings: TenantSettings,
  configuredAt: Date,
): Promise<boolean> {
  const inserted = await db
    .insertInto('tenants')
    .values({ id, ...toColumns(settings), configured_at: configuredAt })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0
}

/**
 * Writes the settings. `onlyUnconfigured`: only if nobody configured the
 * tenant yet (the seed at start). False when no row was changed.
 */
export async function updateTenant(
  db: Db,
  id: string,
  settings: TenantSettings,
  options: { now: Date; onlyUnconfigured?: boolean },
): Promise<boolean> {
  let query = db
    .updateTable('tenants')
    .set({ ...toColumns(settings), configured_at: options.now, updated_at: options.now })
    .where('id', '=', id)
  if (options.onlyUnconfigured) query = query.where('configured_at', 'is', null)
  const updated = await query.executeTakeFirst()
  return Number(updated.numUpdatedRows) > 0
}
