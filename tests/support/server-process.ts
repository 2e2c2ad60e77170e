import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, chromium } from 'playwright-core'
import { APP_ENV_HEADER, DEMO_TENANT_ID, TENANT_HEADER } from '../../contract/tenancy.ts'
import { ensureServerBuilt, SERVER_BUNDLE } from '../../scripts/build-server.mjs'

/*
 * The real server in a child process and Debian's Chromium: what the e2e
 * tests (through e2e-server.ts, which adds their hooks) and
 * `npm run screenshots` drive. No test runner in here.
 */

/** Debian's Chromium: Playwright cannot download its own browsers on this machine. */
export const CHROMIUM = '/usr/bin/chromium'

/** The demo tenant every request of the web app carries (docs/architecture.md, API conventions). */
export const TENANT_HEADERS = {
  [TENANT_HEADER]: DEMO_TENANT_ID,
  [APP_ENV_HEADER]: 'web',
} as const

export interface RunningServer {
  /** The origin, e.g. http://127.0.0.1:40123 */
  url: string
  /** The Prometheus text of GET /metrics. */
  metrics(): Promise<string>
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>
}

// A cold start (tsx compiling the server, PGlite opening, the demo seeded) takes 20–30 s on a
// shared two-core machine under load: 30 s failed e2e files before a single test ran.
const STARTUP_TIMEOUT_MS = 90_000
const running = new Set<ChildProcess>()

/**
 * A migrated embedded database (its data directory, closed) that a server
 * starts from instead of running initdb and every migration, as a restart
 * would: set by the e2e project's global setup (tests/support/e2e-build.ts).
 */
export const PGDATA_TEMPLATE_ENV = 'E2E_PGDATA_TEMPLATE'

// A crashed or interrupted test run must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** A port nobody listens on right now, from the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.unref()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts the real server as `npm start` runs it (`node build/server/main.mjs`,
 * built first when missing or stale) on a free port with embedded PGlite in a
 * fresh data directory, and resolves once GET /healthz answers 200. `env` adds
 * to or overrides the defaults. Built, not through tsx: transpiling the
 * sources at each start took most of a minute on a loaded machine.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-server-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_IP: '1000',
    AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    OTP_MAX_ATTEMPTS_PER_IP: '1000',
    ...env,
  }
  // Unset, not empty: the embedded PGlite on disk, as `npm start` runs it.
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL
  const template = process.env[PGDATA_TEMPLATE_ENV]
  if (template && !('DATABASE_URL' in env) && !('DATA_DIR' in env)) {
    cpSync(template, join(dataDir, 'pgdata'), { recursive: true })
  }

  await ensureServerBuilt()
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: process.cwd(),
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)

  // The last of what the server printed, shown when it does not come up.
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child)
      resolve(code)
    })
  })

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    rmSync(dataDir, { recursive: true, force: true })
  }

  try {
    await waitForHealth(url, exited)
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output || '(none)'}`)
  }

  return {
    url,
    async metrics() {
      const response = await fetch(`${url}/metrics`)
      if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`)
      return response.text()
    },
    stop,
  }
}

async function waitForHealth(url: string, exited: Promise<number | null>): Promise<void> {
  let exitCode: number | null | undefined
  void exited.then((code) => {
    exitCode = code
  })
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`the server exited with code ${exitCode}`)
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status === 200)
      .catch(() => false)
    if (healthy) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the server did not answer GET /healthz within ${STARTUP_TIMEOUT_MS / 1000} s`)
}

/** The browser tests' fonts, the same on every machine (fonts.conf says why). */
const FONTS = fileURLToPath(new URL('./fonts.conf', import.meta.url))

/** Headless Chromium, quiet: no sync, updates or other background traffic. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    env: { ...process.env, FONTCONFIG_FILE: FONTS },
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}
