import { execFile, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { createPostgresTemplate } from './migrated-template.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server the `server:postgres` project runs against; '' when there is none (see below). */
    databaseUrl: string
  }
}

const run = promisify(execFile)

/**
 * globalSetup of the `server:postgres` project: a real PostgreSQL for the
 * server tests. TEST_DATABASE_URL wins; otherwise a throwaway cluster is made
 * with the initdb/pg_ctl of /usr/lib/postgresql/<version>/bin, and removed
 * after the run. Each test app then creates its own database in it
 * (server/test-support.ts), so files run in parallel without sharing rows: a
 * copy of one database migrated here, once (tests/support/migrated-template.ts).
 */
export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL
  if (given) {
    const template = await createPostgresTemplate(given)
    project.provide('databaseUrl', given)
    project.provide('postgresTemplate', template.name)
    return () => template.drop()
  }

  const bin = findPostgresBin()
  if (!bin) {
    const why =
      'No PostgreSQL for the server:postgres tests: set TEST_DATABASE_URL or install PostgreSQL (initdb and pg_ctl in /usr/lib/postgresql/*/bin).'
    // CI must prove both engines; a laptop without PostgreSQL still runs PGlite.
    if (process.env.CI) throw new Error(why)
    console.warn(`${why} Skipping the PostgreSQL run.`)
    project.provide('databaseUrl', '')
    project.provide('postgresTemplate', '')
    return
  }

  const cluster = await startCluster(bin)
  try {
    const template = await createPostgresTemplate(cluster.url)
    project.provide('postgresTemplate', template.name)
  } catch (error) {
    await cluster.stop()
    throw error
  }
  project.provide('databaseUrl', cluster.url)
  // The cluster goes with its template.
  return () => cluster.stop()
}

/** The newest installed version that has both tools (also used by bench/orders.ts). */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  return readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')))
}

/**
 * initdb's arguments for a cluster on one machine: trust, superuser `postgres`, UTF-8, no
 * locale. --no-sync: an interrupted initdb is started again, not recovered.
 */
export function initdbArgs(dataDir: string): string[] {
  return ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync']
}

/** A throwaway cluster owned by `postgres`, stopped and removed by `stop()` or at exit. */
export async function startCluster(bin: string) {
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'))
  const dataDir = join(dir, 'data')
  const logFile = join(dir, 'postgres.log')
  const port = await freePort()

  // initdb refuses to run as root: the cluster then belongs to `postgres`, in a directory it owns.
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
    if (owner.status !== 0) {
      throw new Error('Running as root, but there is no `postgres` user to own the test cluster.')
    }
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()))
  }
  const command = (tool: string, args: string[]) =>
    asRoot
      ? (['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] as const)
      : ([join(bin, tool), args] as const)
  const exec = async (tool: string, args: string[]) => {
    const [file, argv] = command(tool, args)
    try {
      await run(file, [...argv], { cwd: dir })
    } catch (error) {
      const log = existsSync(logFile) ? `\n${readFileSync(logFile, 'utf8')}` : ''
      throw new Error(`${tool} failed: ${(error as { stderr?: string }).stderr ?? error}${log}`)
    }
  }

  await exec('initdb', initdbArgs(dataDir))
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    // Every test app opens a pool of up to 10 in its own database, and files run in parallel.
    '-c max_connections=300',
  ].join(' ')
  // -l keeps the postmaster off our stdout; otherwise execFile would wait on its pipe forever.
  await exec('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', 'start'])

  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    process.off('exit', stopNow)
    await exec('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch((error) =>
      console.error(error),
    )
    rmSync(dir, { recursive: true, force: true })
  }
  // An interrupted run (Ctrl-C) must not leave a postmaster behind.
  function stopNow() {
    const [file, argv] = command('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop'])
    spawnSync(file, [...argv], { cwd: dir })
    rmSync(dir, { recursive: true, force: true })
  }
  process.on('exit', stopNow)

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  try {
    await waitUntilReady(url)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, stop }
}

async function waitUntilReady(url: string) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const client = new pg.Client({ connectionString: url })
    try {
      await client.connect()
      await client.query('select 1')
      return
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`PostgreSQL at ${url} did not become ready: ${error}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await client.end().catch(() => {})
    }
  }
}

/** A TCP port nobody listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
