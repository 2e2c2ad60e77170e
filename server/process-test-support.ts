import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'
import { buildServer } from '../scripts/build-server.mjs'

/**
 * The real server as `npm start` runs it (built by scripts/build-server.mjs,
 * here into a directory of the test file's own, and run by node), in a
 * process of its own, for tests of what only a process shows: kill -9,
 * SIGTERM, a closed stdout. It logs JSON (its stdout is a pipe).
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url))

/**
 * The server as `npm start` builds it, once per test worker (server test files
 * share their worker's modules: vitest.config.ts `isolate: false`), into the
 * run's directory for it (tests/support/server-bundles.ts).
 */
let bundle: Promise<string> | undefined
function builtServer(): Promise<string> {
  bundle ??= (async () => {
    const dir = mkdtempSync(join(inject('serverBundles'), 'worker-'))
    await buildServer(ROOT, join(dir, 'main.mjs'))
    return join(dir, 'main.mjs')
  })()
  return bundle
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything it printed until it was ready (stderr: always). */
  output: string[]
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string>
}

/** The environment of a server on a `provision()` place, with the sandbox on. */
export function serverEnv(
  place: { dataDir: string; databaseUrl: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: place.dataDir,
    DIST_DIR: join(place.dataDir, 'no-dist'),
    // PGlite: in DATA_DIR, on disk; PostgreSQL: a database of the run's server.
    ...(place.databaseUrl !== 'memory://' && { DATABASE_URL: place.databaseUrl }),
    SANDBOX: 'true',
    DEMO_SEED: 'false',
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    ...extra,
  }
}

/**
 * Starts the server and resolves once it logged "ready". With `drain` (the
 * default) its stdout is read to the end, as a terminal would; without, the
 * test owns the pipe (pause it, close it).
 */
export async function startServer(
  env: Record<string, string>,
  options: { drain?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [await builtServer()], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'))
  })
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start in 60 s:\n${output.join('')}`)),
      60_000,
    )
    const onData = (chunk: Buffer) => {
      const text = chunk.toString()
      output.push(text)
      const ready = /"msg":"ready on http:\/\/localhost:(\d+)"/.exec(text)
      if (ready) {
        clearTimeout(timer)
        child.stdout!.off('data', onData)
        resolve(`http://127.0.0.1:${ready[1]}`)
      }
    }
    child.stdout!.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code}) before it was ready:\n${output.join('')}`))
    })
  })
  // Keep draining its logs, or a full pipe would hold its log lines back.
  if (options.drain !== false) child.stdout!.on('data', () => {})
  else child.stdout!.pause()
  return { url, child, output, exited }
}

/** Sends `signal` and resolves once the process is gone. */
export function stopServer(server: ServerProcess, signal: 'SIGKILL' | 'SIGTERM') {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited
  server.child.kill(signal)
  return server.exited
}
