import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Kysely } from 'kysely'
import type { Products, TenantConfig, TenantSettings } from '../../../contract/tenants.ts'
import type { DB } from '../../infra/db/schema.ts'
import { isUuid } from '../../infra/uuid.ts'
import { serverFile } from '../../paths.ts'
import { ensureDefaultPrograms } from '../issuing/default-programs.ts'
import { TenantError } from './errors.ts'
import * as repo from './repository.ts'
import { DEFAULT_SETTINGS, resolveSettings, supportedCountries } from './rules.ts'

export type { TenantRow } from './repository.ts'

/** The config as the app reads it: the settings, nested, with the card-secret key. */
export function toConfig(tenant: repo.TenantRow, cardSecretPublicKey: string): TenantConfig {
  const settings = tenant.settings
  return {
    id: tenant.id,
    name: settings.name,
    branding: {
      primary_color: settings.primary_color,
      accent_color: settings.accent_color,
      logo_url: settings.logo_url,
    },
    products: settings.products,
    wallet_types: settings.wallet_types as TenantConfig['wallet_types'],
    default_display_currency:
      settings.default_display_currency as TenantConfig['default_display_currency'],
    supported_countries: supportedCountries(settings),
    support: {
      email: settings.support_email,
      phone: settings.support_phone,
      url: settings.support_url,
    },
    card_secret_public_key: cardSecretPublicKey,
    logout_url: settings.logout_url,
  }
}

/**
 * Tenants and their configuration: read by the API, written by the admin CLI
 * and the seed. Every write goes through rules.resolveSettings.
 * Fails with TenantError: TENANT_NOT_FOUND, TENANT_EXISTS, INVALID_SETTINGS.
 */
export class TenantService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async show(tenantId: string): Promise<repo.TenantRow> {
    const tenant = await repo.findTenant(this.db, tenantId)
    if (!tenant) throw new TenantError({ kind: 'TENANT_NOT_FOUND', tenantId })
    return tenant
  }

  list(): Promise<repo.TenantRow[]> {
    return repo.listTenants(this.db)
  }

  /** Undefined for an unknown tenant. */
  products(tenantId: string): Promise<Products | undefined> {
    return repo.findProducts(this.db, tenantId)
  }

  /** A new tenant: the defaults with `changes` over them, and the default card programs. */
  async create(changes: Record<string, unknown>, options: { id?: string } = {}) {
    const settings = valid(resolveSettings(DEFAULT_SETTINGS, changes))
    const id = (options.id ?? randomUUID()).toLowerCase()
    return this.db.transaction().execute(async (trx) => {
      if (!(await repo.insertTenant(trx, id, settings, this.clock()))) {
        throw new TenantError({ kind: 'TENANT_EXISTS', tenantId: id })
      }
      await ensureDefaultPrograms(trx, id)
      return (await repo.findTenant(trx, id))!
    })
  }

  /** Applies `changes` over the tenant's settings; products one by one. */
  async update(tenantId: string, changes: Record<string, unknown>) {
    return this.db.transaction().execute(async (trx) => {
      // Locked: two operators switching two products at once both win.
      const current = await repo.findTenant(trx, tenantId, { lock: true })
      if (!current) throw new TenantError({ kind: 'TENANT_NOT_FOUND', tenantId })
      const settings = valid(resolveSettings(current.settings, changes))
      await repo.updateTenant(trx, tenantId, settings, { now: this.clock() })
      return (await repo.findTenant(trx, tenantId))!
    })
  }
}

const valid = (resolved: ReturnType<typeof resolveSettings>): TenantSettings => {
  if (resolved.faults) throw new TenantError({ kind: 'INVALID_SETTINGS', faults: resolved.faults })
  return resolved.settings
}

/** server/db/tenants.seed.json: `{"tenants": [{"id": …, …settings}]}`. */
export const SEED_FILE = serverFile('db/tenants.seed.json')

/**
 * The tenants of the seed file, each with its card programs. Idempotent, and a
 * tenant is configured from the file only until someone configured it: at
 * first start, or the first start after migration 0012 for an older database.
 * A file that fails validation stops the start, naming every fault.
 */
export async function seedTenants(db: Kysely<DB>, file: URL | string = SEED_FILE): Promise<void> {
  const seed = JSON.parse(await readFile(file, 'utf8')) as { tenants?: unknown }
  if (!Array.isArray(seed.tenants)) throw new Error(`${file}: expected {"tenants": [...]}`)
  const now = new Date()
  for (const [index, entry] of (seed.tenants as Array<Record<string, unknown>>).entries()) {
    const { id, ...changes } = entry
    if (typeof id !== 'string' || !isUuid(id)) {
      throw new Error(`${file}: tenants[${index}] needs an id, a UUID`)
    }
    const resolved = resolveSettings(DEFAULT_SETTINGS, changes)
    if (resolved.faults) {
      const lines = resolved.faults.map((fault) => `  - ${fault.field}: ${fault.message}`)
      throw new Error(`${file}: tenant ${id} is not valid:\n${lines.join('\n')}`)
    }
    const tenantId = id.toLowerCase()
    if (!(await repo.insertTenant(db, tenantId, resolved.settings, now))) {
      await repo.updateTenant(db, tenantId, resolved.settings, { now, onlyUnconfigured: true })
    }
    await ensureDefaultPrograms(db, tenantId)
  }
}
