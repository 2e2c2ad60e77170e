import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SecretPublicKey } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { PRODUCTS, type TenantConfig } from '../../../contract/tenants.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
} from '../../test-support.ts'
import { countryList } from '../location/countries.ts'
import { TenantError } from './errors.ts'
import { SEED_FILE, seedTenants, TenantService } from './service.ts'

describeServer('tenant configuration', () => {
  let app: FastifyInstance
  let tenants: TenantService
  let acme: string
  const dir = mkdtempSync(join(tmpdir(), 'tenant-seed-'))
  const getConfig = (tenantId: string, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: '/api/v2/tenants/config',
      headers: headers({ 'x-tenant-id': tenantId, ...extra }),
    })

  beforeAll(async () => {
    app = await createTestApp()
    tenants = new TenantService(app.db)
    acme = (
      await tenants.create({
        name: 'Acme Money',
        primary_color: '#AA0000',
        accent_color: '#00aa00',
        logo_url: '/branding/acme.svg',
        products: { cards: false, p2p: false },
        wallet_types: ['personal', 'trading'],
        default_display_currency: 'GBP',
        supported_countries: ['GB', 'IE'],
        support_email: 'help@acme.example',
        support_url: '/help',
        logout_url: 'https://acme.example/goodbye',
      })
    ).id
  })
  afterAll(async () => {
    await app?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('the demo tenant is configured from the seed file, and needs no sign-in', async () => {
    const response = await getConfig(DEMO_TENANT_ID)

    expect(response.statusCode, response.body).toBe(200)
    const config = response.json<TenantConfig>()
    expect(config).toMatchObject({
      id: DEMO_TENANT_ID,
      name: 'Finplatform',
      branding: { primary_color: '#3b5bfd', logo_url: '/icons/icon-192.png' },
      products: Object.fromEntries(PRODUCTS.map((product) => [product, true])),
      default_display_currency: 'EUR',
      support: { email: 'support@demo.finplatform.dev', phone: '+442079460958' },
      logout_url: null,
    })
    // No list in the seed: every country of GET /location/countries.
    expect(config.supported_countries).toHaveLength(countryList().length)
    expect(config.supported_countries).toContain('DE')
  })

  it('carries the same card-secret public key as the issuing config', async () => {
    const pair = await signUp(app)
    const issuing = await app.inject({
      method: 'GET',
      url: '/api/v1/issuing/config/secret-key',
      headers: headers({ authorization: pair.access_token }),
    })
    const config = (await getConfig(DEMO_TENANT_ID)).json<TenantConfig>()

    expect(issuing.statusCode, issuing.body).toBe(200)
    expect(config.card_secret_public_key).toBe(issuing.json<SecretPublicKey>().public_key_pem)
    expect(config.card_secret_public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
  })

  it('each tenant reads its own configuration and nothing of another', async () => {
    const demo = (await getConfig(DEMO_TENANT_ID)).json<TenantConfig>()
    const own = (await getConfig(acme)).json<TenantConfig>()

    expect(own).toEqual<TenantConfig>({
      id: acme,
      name: 'Acme Money',
      branding: {
        primary_color: '#aa0000',
        accent_color: '#00aa00',
        logo_url: '/branding/acme.svg',
      },
      products: { crypto: true, fiat: true, cards: false, exchange: true, p2p: false },
      wallet_types: ['personal', 'trading'],
      default_display_currency: 'GBP',
      supported_countries: ['GB', 'IE'],
      support: { email: 'help@acme.example', phone: null, url: '/help' },
      card_secret_public_key: demo.card_secret_public_key,
      logout_url: 'https://acme.example/goodbye',
    })
    expect(JSON.stringify(demo)).not.toContain(acme)
    expect(JSON.stringify(own)).not.toContain(DEMO_TENANT_ID)
  })

  it('a tenant created without settings gets the defaults', async () => {
    const bare = await tenants.create({ name: 'Bare' })
    const config = (await getConfig(bare.id)).json<TenantConfig>()

    expect(config).toMatchObject({
      name: 'Bare',
      branding: { primary_color: '#3b5bfd', accent_color: '#16794a', logo_url: null },
      default_display_currency: 'USD',
      support: { email: 'support@finplatform.local', phone: null, url: null },
      logout_url: null,
    })
    expect(config.wallet_types).toHaveLength(8)
    // Its card programs came with it: opening a fiat account under it works.
    const programs = await app.db
      .selectFrom('card_programs')
      .select('id')
      .where('tenant_id', '=', bare.id)
      .execute()
    expect(programs.length).toBeGreaterThan(0)
  })

  it('an unknown tenant answers 404, a missing or malformed header 400', async () => {
    expectProblem(await getConfig('00000000-0000-4000-8000-000000000000'), 404, 'TENANT_NOT_FOUND')
    expectProblem(await getConfig('acme'), 400, 'TENANT_INVALID')
    const bare = await app.inject({ method: 'GET', url: '/api/v2/tenants/config' })
    expectProblem(bare, 400, 'TENANT_REQUIRED')
  })

  it('is cacheable: an ETag, revalidation, 304 while unchanged and a new tag after a change', async () => {
    const first = await getConfig(acme)
    const etag = String(first.headers.etag)

    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(first.headers['cache-control']).toBe('public, no-cache')
    expect(String(first.headers.vary)).toMatch(/x-tenant-id/i)
    const again = await getConfig(acme, { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect((await getConfig(acme, { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304)
    // Another tenant's tag is another tag.
    expect((await getConfig(DEMO_TENANT_ID, { 'if-none-match': etag })).statusCode).toBe(200)

    await tenants.update(acme, { accent_color: '#0000aa' })
    const changed = await getConfig(acme, { 'if-none-match': etag })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers.etag).not.toBe(etag)
    expect(changed.json<TenantConfig>().branding.accent_color).toBe('#0000aa')
  })

  it('a person of tenant A is nobody in tenant B: their token is refused there', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(app, pair.access_token)

    expect((await getUser(app, pair.access_token)).statusCode).toBe(200)
    const elsewhere = await app.inject({
      method: 'GET',
      url: `/api/v2/wallets/${wallet.uuid}`,
      headers: headers({ 'x-tenant-id': acme, ...bearer(pair.access_token) }),
    })
    expectProblem(elsewhere, 401, 'UNAUTHORIZED')

    // And a person of B does not find A's wallet by its id.
    const other = await signUp(app, { headers: headers({ 'x-tenant-id': acme }) })
    const lookup = await app.inject({
      method: 'GET',
      url: `/api/v2/wallets/${wallet.uuid}`,
      headers: headers({ 'x-tenant-id': acme, ...bearer(other.access_token) }),
    })
    expect(lookup.statusCode).toBe(404)
  })

  it('refuses invalid settings, naming every field, and changes nothing', async () => {
    const before = await tenants.show(acme)
    const error = await tenants
      .update(acme, {
        primary_color: 'red',
        logout_url: 'javascript:alert(1)',
        supported_countries: ['GB', 'XX'],
        default_display_currency: 'JPY',
        products: { cards: 'off' },
      })
      .catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(TenantError)
    expect((error as TenantError).failure).toMatchObject({
      kind: 'INVALID_SETTINGS',
      faults: [
        { field: '/primary_color' },
        { field: '/products/cards' },
        { field: '/default_display_currency' },
        { field: '/supported_countries/1' },
        { field: '/logout_url' },
      ],
    })
    expect(await tenants.show(acme)).toEqual(before)
  })

  it('an update of an unknown tenant, or a create with a taken id, is refused', async () => {
    await expect(
      tenants.update('00000000-0000-4000-8000-000000000000', { name: 'X' }),
    ).rejects.toMatchObject({ failure: { kind: 'TENANT_NOT_FOUND' } })
    await expect(tenants.create({ name: 'Again' }, { id: acme })).rejects.toMatchObject({
      failure: { kind: 'TENANT_EXISTS' },
    })
  })

  it('the seed configures a tenant once: a restart never undoes an operator’s change', async () => {
    await tenants.update(DEMO_TENANT_ID, { default_display_currency: 'USD' })

    await seedTenants(app.db)

    expect((await tenants.show(DEMO_TENANT_ID)).settings.default_display_currency).toBe('USD')
    await tenants.update(DEMO_TENANT_ID, { default_display_currency: 'EUR' })
  })

  it('a tenant from before the configuration (defaults, never configured) takes the seed', async () => {
    const id = '7d0c2a51-6f0e-4c1e-9a55-0b5b8d7e3c10'
    await app.db.insertInto('tenants').values({ id, name: 'Old' }).execute()
    const file = join(dir, 'old.json')
    writeFileSync(
      file,
      JSON.stringify({ tenants: [{ id, name: 'Old Bank', primary_color: '#101010' }] }),
    )

    await seedTenants(app.db, file)
    await seedTenants(app.db, file)

    const tenant = await tenants.show(id)
    expect(tenant.settings).toMatchObject({ name: 'Old Bank', primary_color: '#101010' })
    expect(tenant.configuredAt).toBeInstanceOf(Date)
  })

  it('a seed file with a wrong value stops the start, naming the tenant and the field', async () => {
    const file = join(dir, 'bad.json')
    writeFileSync(
      file,
      JSON.stringify({ tenants: [{ id: DEMO_TENANT_ID, name: 'Demo', primary_color: 'blue' }] }),
    )

    await expect(seedTenants(app.db, file)).rejects.toThrow(
      new RegExp(`tenant ${DEMO_TENANT_ID} is not valid:\\n {2}- /primary_color: `),
    )
  })

  it('is in the OpenAPI document, public: an empty security requirement', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    const operation = document.paths['/api/v2/tenants/config'].get

    expect(operation.responses).toHaveProperty('200')
    expect(operation.responses).toHaveProperty('304')
    expect(operation.security).toEqual([])
  })

  it('the seed file configures the demo tenant the app sends by default', async () => {
    const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as { tenants: { id: string }[] }

    expect(seed.tenants.map((tenant) => tenant.id)).toContain(DEMO_TENANT_ID)
  })
})
