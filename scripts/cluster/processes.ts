/**
 * The cluster's processes: the API nodes, the daemons (PgBouncer, HAProxy) and what stops them
 * all, in order, when the topology stops or the script exits; and HAProxy's runtime API.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { closeSync, openSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { SERVER_BUNDLE } from '../build-server.mjs'
import type { Topology } from './topology.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface Owner {
  uid: number
  gid: number
}

/** initdb, PostgreSQL and PgBouncer refuse root: as root they run as `postgres`. */
export function postgresOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' })
  const uid = id('-u')
  if (uid.status !== 0) throw new Error('Running as root, but there is no `postgres` user.')
  return { uid: Number(uid.stdout.trim()), gid: Number(id('-g').stdout.trim()) }
}

/** What stop() undoes, last first; also run at process exit if stop() never came. */
export class Cleanup {
  readonly #steps: { name: string; run: () => Promise<void>; now: () => void }[] = []
  #done = false

  constructor(readonly dir: string) {
    process.once('exit', this.#atExit)
  }

  add(name: string, run: () => Promise<void>, now: () => void) {
    this.#steps.push({ name, run, now })
  }

  async run() {
    if (this.#done) return
    this.#done = true
    process.off('exit', this.#atExit)
    for (const step of this.#steps.reverse()) {
      await step.run().catch((error) => console.error(`stopping ${step.name}: ${error}`))
    }
    rmSync(this.dir, { recursive: true, force: true })
  }

  // An exit without stop() (a crash, process.exit) must not leave servers behind.
  readonly #atExit = () => {
    if (this.#done) return
    for (const step of this.#steps.reverse()) {
      try {
        step.now()
      } catch {
        // best effort
      }
    }
    rmSync(this.dir, { recursive: true, force: true })
  }
}

export interface ApiNodeInfo {
  name: string
  port: number
  url: string
  pid: number | undefined
  restarts: number
}

/** One API node: `node build/server/main.mjs` (as `npm start` runs it), restarted when it exits on its own. */
export class ApiNode {
  #child: ChildProcess | undefined
  #stopping = false
  #startedAt = 0
  #quickCrashes = 0
  restarts = 0

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string | undefined>,
    readonly logFile: string,
    private readonly restart: boolean,
    private readonly log: (line: string) => void,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`
  }

  get pid() {
    return this.#child?.pid
  }

  info(): ApiNodeInfo {
    return {
      name: this.name,
      port: this.port,
      url: this.url,
      pid: this.pid,
      restarts: this.restarts,
    }
  }

  start() {
    const out = openSync(this.logFile, 'a')
    const child = spawn(process.execPath, [SERVER_BUNDLE], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...this.env },
      stdio: ['ignore', out, out],
      // Its own process group: Ctrl-C reaches the cluster script, which stops nodes in order.
      detached: true,
    })
    closeSync(out)
    this.#child = child
    this.#startedAt = Date.now()
    child.once('exit', (code, signal) => {
      if (this.#stopping || this.#child !== child) return
      const how = signal ?? `code ${code}`
      // A node that cannot even start (bad settings) is not restarted for ever.
      this.#quickCrashes = Date.now() - this.#startedAt < 10_000 ? this.#quickCrashes + 1 : 0
      if (!this.restart || this.#quickCrashes >= 3) {
        this.log(`${this.name} exited (${how}); not restarted — see ${this.logFile}`)
        return
      }
      this.log(`${this.name} exited (${how}); restarting it`)
      this.restarts++
      setTimeout(() => {
        if (!this.#stopping) this.start()
      }, 500)
    })
  }

  /** Waits until the node answers /readyz with 200. */
  ready(timeoutMs = 180_000) {
    return waitFor(
      this.name,
      async () => {
        const response = await fetch(`${this.url}/readyz`)
        if (!response.ok) throw new Error(`${this.name} answered ${response.status}`)
      },
      timeoutMs,
    )
  }

  kill(signal: NodeJS.Signals) {
    this.#child?.kill(signal)
  }

  /** SIGTERM: it stops taking requests, finishes those in hand, hands back its jobs, exits. */
  async stop() {
    this.#stopping = true
    if (this.#child) await stopChild(this.#child, 'SIGTERM')
  }
}

/** A long-running program in its own process group, its output to a file. */
export function daemon(file: string, args: string[], output: string, identity: Partial<Owner>) {
  const out = openSync(output, 'a')
  const child = spawn(file, args, { stdio: ['ignore', out, out], detached: true, ...identity })
  closeSync(out)
  return child
}

/** Sends `signal`, waits up to 30 s for the exit, then SIGKILL. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill(signal)
  })
}

export async function withClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end().catch(() => {})
  }
}

export async function waitFor(what: string, probe: () => Promise<unknown>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await probe()
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not come up: ${error}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

/** One command to HAProxy's runtime API (a Unix socket): the whole reply. */
export function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const connection = connect(socket, () => connection.end(`${command}\n`))
    connection.on('data', (chunk) => chunks.push(chunk))
    connection.on('end', () => resolve(Buffer.concat(chunks).toString()))
    connection.on('error', reject)
  })
}

/** The nodes' rows of HAProxy's `show stat`: state and requests answered per node. */
export async function nodeStats(topology: Pick<Topology, 'haproxy'>) {
  const csv = await topology.haproxy('show stat')
  const [header, ...lines] = csv.replace(/^# /, '').trim().split('\n')
  const columns = header!.split(',')
  return lines
    .map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])))
    .filter((row) => row.pxname === 'nodes' && row.svname !== 'BACKEND')
    .map((row) => ({
      name: String(row.svname),
      status: String(row.status),
      requests: Number(row.stot),
      failedChecks: Number(row.chkfail),
      downs: Number(row.chkdown),
    }))
}
