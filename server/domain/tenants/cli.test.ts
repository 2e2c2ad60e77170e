import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { buildApp } from '../../app.ts'
import { loadConfig } from '../../config.ts'
import { acquireDataDirLock } from '../../infra/db/data-dir-lock.ts'
import type { Database } from '../../infra/db/database.ts'
import { openDatabase } from '../../infra/db/database.ts'
import { migrate, readMigrations } from '../../infra/db/migrate.ts'
import { createTestDatabase, describeServer, provision } from '../../test-support.ts'
import { PasskeyService } from '../auth/passkeys.ts'
import type { AuthService } from '../auth/service.ts'
import { EXIT, flagOf, parseCommand, runTenantCli, UsageError } from './cli.ts'
import { openCliDatabase } from './cli-database.ts'
import { seedTenants, TenantService } from './service.ts'

/**
 * Spawning the CLI through tsx, or migrating a fresh database on disk, takes ~20 s on an idle
 * 2-core machine and past vitest's 30 s when every worker is busy: these tests get more.
 */
const SLOW_PROCESS_MS = 120_000

describe('the tenant CLI’s command line', () => {
  it.each([
    [['list'], { name: 'list' }],
    [['show', DEMO_TENANT_ID.toUpperCase()], { name: 'show', id: DEMO_TENANT_ID }],
    [['--help'], { name: 'help' }],
    [
      ['create', '--name', 'Acme', '--primary-color=#AA0000', '--products.cards=false'],
      {
        name: 'create',
        id: undefined,
        changes: { name: 'Acme', primary_color: '#AA0000', products: { cards: false } },
      },
    ],
    [
      [
        'update',
        DEMO_TENANT_ID,
        '--products.p2p',
        'off',
        '--products.fiat=yes',
        '--wallet-types',
        'personal, trading',
        '--supported-countries=de,fr',
        '--logout-url=',
        '--support-phone',
        'none',
      ],
      {
        name: 'update',
        id: DEMO_TENANT_ID,
        changes: {
          products: { p2p: false, fiat: true },
          wallet_types: ['personal', 'trading'],
          supported_countries: ['DE', 'FR'],
          logout_url: null,
          support_phone: null,
        },
      },
    ],
    [
      ['update', DEMO_TENANT_ID, '--supported-countries', 'all'],
      { name: 'update', id: DEMO_TENANT_ID, changes: { supported_countries: null } },
    ],
  ])('%j', (argv, command) => {
    expect(parseCommand(argv)).toEqual(command)
  })

  it.each([
    [[], /No command/],
    [['delete', DEMO_TENANT_ID], /Unknown command: delete/],
    [['show'], /needs the tenant's id/],
    [['show', 'acme'], /Not a tenant id/],
    [['create'], /needs --name/],
    [['create', '--name', 'A', '--id', 'nope'], /--id must be a UUID/],
    [['create', '--name', 'A', '--colour', 'red'], /Unknown option '--colour'/],
    [['update', DEMO_TENANT_ID], /needs a setting/],
    [['list', '--name', 'x'], /takes no settings/],
  ])('%j is not understood', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError)
    expect(() => parseCommand(argv)).toThrow(message)
  })

  it('names a fault by the flag that set it', () => {
    expect(flagOf('/products/cards')).toBe('--products.cards')
    expect(flagOf('/wallet_types/2')).toBe('--wallet-types')
    expect(flagOf('/primary_color')).toBe('--primary-color')
  })
})

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

describeServer('npm run tenant, the real process', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  const tenantCli = (argv: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/tenant.ts', ...argv], {
        env: { PATH: process.env.PATH ?? '', ...env },
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })

  it(
    'creates a tenant in DATA_DIR’s database or DATABASE_URL’s, and exits 0',
    async () => {
      const place = await provision()
      cleanups.push(place.dispose)
      // PGlite: on disk in DATA_DIR (memory:// would end with the process); PostgreSQL: its database.
      const onDisk = place.databaseUrl === 'memory://'
      const env = { DATA_DIR: place.dataDir, ...(!onDisk && { DATABASE_URL: place.databaseUrl }) }

      // A fresh database: its schema is behind, so the CLI migrates only when told to.
      const refused = await tenantCli(['list'], env)
      expect(refused.code).toBe(EXIT.refused)
      expect(refused.stderr).toMatch(/schema is behind this checkout .* --migrate/)

      const result = await tenantCli(
        [
          'create',
          '--migrate',
          '--name',
          'Spawned',
          '--products.exchange=false',
          '--id',
          '5f1c8e62-3a7d-4b9e-8c21-6d4e0f9a7b33',
        ],
        env,
      )

      expect(result.code, result.stderr).toBe(EXIT.ok)
      expect(JSON.parse(result.stdout)).toMatchObject({
        id: '5f1c8e62-3a7d-4b9e-8c21-6d4e0f9a7b33',
        name: 'Spawned',
        products: { exchange: false },
      })
      const database = await openDatabase({
        databaseUrl: onDisk ? undefined : place.databaseUrl,
        dataDir: place.dataDir,
      })
      try {
        const row = await database.db
          .selectFrom('tenants')
          .select(['name', 'products'])
          .where('id', '=', '5f1c8e62-3a7d-4b9e-8c21-6d4e0f9a7b33')
          .executeTakeFirstOrThrow()
        expect(row).toMatchObject({ name: 'Spawned', products: { exchange: false } })
      } finally {
        await database.close()
      }
    },
    SLOW_PROCESS_MS,
  )

  it('a command it does not understand exits 2 without touching a database', async () => {
    const result = await tenantCli(['create'], { DATA_DIR: '/nonexistent/tenant-cli' })

    expect(result.code).toBe(EXIT.usage)
    expect(result.stderr).toMatch(/^create needs --name\.\n\nUsage:/)
  })
})

describeServer('the tenant CLI’s database: the lock and the schema', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })
  /** PGlite on disk in DATA_DIR (the locked case); PostgreSQL: the run's database. */
  const place = async () => {
    const provisioned = await provision()
    cleanups.push(provisioned.dispose)
    const onDisk = provisioned.databaseUrl === 'memory://'
    return {
      dataDir: provisioned.dataDir,
      databaseUrl: onDisk ? undefined : provisioned.databaseUrl,
    }
  }
  const run = async (argv: string[], open: Parameters<typeof runTenantCli>[1]) => {
    const err: string[] = []
    const code = await runTenantCli(argv, open, {
      out: () => undefined,
      err: (text) => err.push(text),
    })
    return { code, err: err.join('\n') }
  }

  it('refuses a schema behind the checkout unless --migrate, and one ahead of it always', async () => {
    const where = await place()
    const migrations = await readMigrations()
    const older = await openDatabase(where)
    await migrate(older.db, migrations.slice(0, -1))
    await older.close()
    const open = ({ migrate }: { migrate: boolean }) =>
      openCliDatabase({ ...where, migrate, migrations })

    const behind = await run(['list'], open)
    expect(behind.code).toBe(EXIT.refused)
    expect(behind.err).toContain(`not applied: ${migrations.at(-1)!.version}`)
    expect(await run(['list', '--migrate'], open)).toMatchObject({ code: EXIT.ok })
    expect(await run(['list'], open)).toMatchObject({ code: EXIT.ok })

    // An older checkout (one migration fewer) against this database: refused, migrate or not.
    const oldCheckout = ({ migrate }: { migrate: boolean }) =>
      openCliDatabase({ ...where, migrate, migrations: migrations.slice(0, -1) })
    const ahead = await run(['list', '--migrate'], oldCheckout)
    expect(ahead.code).toBe(EXIT.refused)
    expect(ahead.err).toMatch(/migrations this checkout does not know/)
  })

  // The lock guards the embedded database (PGlite on disk in DATA_DIR), on either project.
  const embedded = async () => ({ dataDir: (await place()).dataDir, databaseUrl: undefined })

  it(
    'on the embedded database: refused with exit 1 while the server holds it',
    async () => {
      const where = await embedded()
      const server = acquireDataDirLock(where.dataDir, 'the server')
      try {
        const held = await run(['list', '--migrate'], ({ migrate }) =>
          openCliDatabase({ ...where, migrate }),
        )
        expect(held.code).toBe(EXIT.refused)
        expect(held.err).toMatch(/in use by the server .* only one process may open it/)
      } finally {
        server.release()
      }
      // The server stopped: the CLI may go, and lets go of the lock when done.
      const free = await run(['list', '--migrate'], ({ migrate }) =>
        openCliDatabase({ ...where, migrate }),
      )
      expect(free).toMatchObject({ code: EXIT.ok })
      acquireDataDirLock(where.dataDir, 'the server').release()
    },
    SLOW_PROCESS_MS,
  )

  it('the server does not start on an embedded database another process holds', async () => {
    const where = await embedded()
    const cli = acquireDataDirLock(where.dataDir, 'the tenant CLI')
    try {
      const config = loadConfig({
        DATA_DIR: where.dataDir,
        LOG_LEVEL: 'silent',
        DEMO_SEED: 'false',
      })
      await expect(buildApp(config)).rejects.toThrowError(/in use by the tenant CLI/)
    } finally {
      cli.release()
    }
  })
})
