import { spawn } from 'node:child_process'
import { afterAll, expect, it } from 'vitest'
import { buildApp } from '../../app.ts'
import { loadConfig } from '../../config.ts'
import { acquireDataDirLock } from '../../infra/db/data-dir-lock.ts'
import { openDatabase } from '../../infra/db/database.ts'
import { migrate, readMigrations } from '../../infra/db/migrate.ts'
import { provision } from '../../test-databases.ts'
import { describeServer } from '../../test-support.ts'
import { EXIT, runTenantCli } from './cli.ts'
import { openCliDatabase } from './cli-database.ts'

/**
 * Spawning the CLI through tsx, or migrating a fresh database on disk, takes ~20 s on an idle
 * 2-core machine and past vitest's 30 s when every worker is busy: these tests get more.
 */
const SLOW_PROCESS_MS = 120_000

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
