import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Database } from '../../infra/db/database.ts'
import { migrate } from '../../infra/db/migrate.ts'
import { createTestDatabase } from '../../test-databases.ts'
import { describeServer } from '../../test-support.ts'
import { PasskeyService } from '../auth/passkeys.ts'
import type { AuthService } from '../auth/service.ts'
import { EXIT, runTenantCli } from './cli.ts'
import { seedTenants, TenantService } from './service.ts'

describeServer('the tenant CLI against a database', () => {
  let database: Database
  const run = async (...argv: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await runTenantCli(
      argv,
      async () => ({ db: database.db, close: async () => undefined }),
      { out: (text) => out.push(text), err: (text) => err.push(text) },
    )
    return { code, out: out.join('\n'), err: err.join('\n') }
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    await migrate(database.db)
    await seedTenants(database.db)
  })
  afterAll(() => database?.close())

  it('create, update and show a tenant', async () => {
    const created = await run(
      'create',
      '--name',
      'Acme Money',
      '--primary-color',
      '#AA0000',
      '--products.cards=false',
      '--supported-countries',
      'gb,ie',
    )
    expect(created, created.err).toMatchObject({ code: EXIT.ok, err: '' })
    const tenant = JSON.parse(created.out)
    expect(tenant).toMatchObject({
      name: 'Acme Money',
      primary_color: '#aa0000',
      products: { cards: false, crypto: true },
      supported_countries: ['GB', 'IE'],
      configured_at: expect.any(String),
    })

    const updated = await run(
      'update',
      tenant.id,
      '--products.cards=true',
      '--products.p2p=false',
      '--logout-url',
      'https://acme.example/bye',
    )
    expect(updated.code, updated.err).toBe(EXIT.ok)
    expect(JSON.parse(updated.out)).toMatchObject({
      primary_color: '#aa0000',
      products: { cards: true, p2p: false },
      logout_url: 'https://acme.example/bye',
    })

    const shown = await run('show', tenant.id)
    expect(shown.code).toBe(EXIT.ok)
    expect(JSON.parse(shown.out)).toEqual(JSON.parse(updated.out))
  })

  it('lists every tenant with the products it offers', async () => {
    const { id } = await new TenantService(database.db).create({
      name: 'Listed',
      products: { cards: false, fiat: false, p2p: false },
    })
    const listed = await run('list')

    expect(listed.code).toBe(EXIT.ok)
    expect(listed.out.split('\n')[0]).toBe(
      `${DEMO_TENANT_ID}  Finplatform  [crypto, fiat, cards, exchange, p2p]`,
    )
    expect(listed.out).toContain(`${id}  Listed  [crypto, exchange]`)
  })

  it('refuses invalid settings with exit 1, every fault named by its flag, and saves nothing', async () => {
    const before = await run('show', DEMO_TENANT_ID)
    const refused = await run(
      'update',
      DEMO_TENANT_ID,
      '--primary-color',
      'blue',
      '--products.cards=maybe',
      '--default-display-currency',
      'JPY',
      '--supported-countries',
      'DE,XX',
      '--logo-url',
      'http://insecure.example/logo.png',
    )

    expect(refused.code).toBe(EXIT.refused)
    expect(refused.out).toBe('')
    expect(refused.err.split('\n')).toEqual([
      'Not saved:',
      expect.stringMatching(
        /^ {2}--primary-color: Must be a colour written #rrggbb, got "blue"\.$/,
      ),
      expect.stringMatching(/^ {2}--logo-url: Must be a path on the app's origin/),
      expect.stringMatching(/^ {2}--products\.cards: Must be true or false, got "maybe"\.$/),
      expect.stringMatching(/^ {2}--default-display-currency: .*USD, EUR, GBP/),
      expect.stringMatching(/^ {2}--supported-countries: .*"XX"/),
    ])
    expect((await run('show', DEMO_TENANT_ID)).out).toBe(before.out)
  })

  it('an unknown tenant, or a taken id, is exit 1; a command not understood is exit 2 with the usage', async () => {
    const missing = await run('show', '00000000-0000-4000-8000-000000000000')
    expect(missing).toMatchObject({
      code: EXIT.refused,
      err: 'No tenant 00000000-0000-4000-8000-000000000000.',
    })
    const taken = await run('create', '--name', 'Twin', '--id', DEMO_TENANT_ID)
    expect(taken).toMatchObject({
      code: EXIT.refused,
      err: `A tenant ${DEMO_TENANT_ID} exists already.`,
    })

    const usage = await run('frobnicate')
    expect(usage.code).toBe(EXIT.usage)
    expect(usage.err).toMatch(/^Unknown command: frobnicate\n\nUsage: npm run tenant -- <command>/)
  })

  it('passkeys: sets a tenant’s RP id and origins, checked, which passkeys then use; --server-default clears them', async () => {
    const { id } = await new TenantService(database.db).create({ name: 'Passkey Bank' })
    const passkeys = new PasskeyService(database.db, {} as AuthService, {
      rpId: 'localhost',
      origins: ['http://localhost:5173'],
    })
    expect(JSON.parse((await run('passkeys', id)).out)).toEqual({
      tenant_id: id,
      webauthn_rp_id: null,
      webauthn_origins: null,
    })

    const set = await run(
      'passkeys',
      id.toUpperCase(),
      '--rp-id',
      'bank.example.com',
      '--origins',
      'https://bank.example.com, https://app.bank.example.com',
    )
    expect(set, set.err).toMatchObject({ code: EXIT.ok, err: '' })
    expect(JSON.parse(set.out)).toEqual({
      tenant_id: id,
      webauthn_rp_id: 'bank.example.com',
      webauthn_origins: ['https://bank.example.com', 'https://app.bank.example.com'],
    })
    expect(await passkeys.relyingParty(id)).toMatchObject({
      rpId: 'bank.example.com',
      origins: ['https://bank.example.com', 'https://app.bank.example.com'],
    })

    const refused = await run(
      'passkeys',
      id,
      '--rp-id',
      'Bank.Example.com',
      '--origins',
      'http://bank.example.com,https://evil.example.org',
    )
    expect(refused.code).toBe(EXIT.refused)
    expect(refused.err.split('\n')).toEqual([
      'Not saved:',
      '  the RP id "Bank.Example.com" must be a lower-case host name, e.g. app.example.com',
      '  "http://bank.example.com" must use https (http only for localhost)',
      '  "http://bank.example.com" is not on the RP id "Bank.Example.com" or a subdomain of it',
      '  "https://evil.example.org" is not on the RP id "Bank.Example.com" or a subdomain of it',
    ])
    expect(JSON.parse((await run('passkeys', id)).out).webauthn_rp_id).toBe('bank.example.com')

    const cleared = await run('passkeys', id, '--server-default')
    expect(JSON.parse(cleared.out)).toMatchObject({ webauthn_rp_id: null, webauthn_origins: null })
    expect(await passkeys.relyingParty(id)).toMatchObject({
      rpId: 'localhost',
      origins: ['http://localhost:5173'],
    })

    expect(await run('passkeys', '00000000-0000-4000-8000-000000000000')).toMatchObject({
      code: EXIT.refused,
      err: 'No tenant 00000000-0000-4000-8000-000000000000.',
    })
    const half = await run('passkeys', id, '--rp-id', 'bank.example.com')
    expect(half.code).toBe(EXIT.usage)
    expect(half.err).toMatch(
      /^--rp-id and --origins go together\.\n\nUsage: npm run tenant -- passkeys/,
    )
    expect((await run('passkeys', 'nope')).err).toMatch(/^Not a tenant id \(a UUID\): nope/)
  })
})
