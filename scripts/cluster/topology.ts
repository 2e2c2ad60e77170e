/**
 * The scale-out topology on one machine, from Debian's packages: a PostgreSQL
 * primary, a streaming replica of it (pg_basebackup), PgBouncer in transaction
 * pooling in front of both, N API nodes (`server/main.ts`, built), and HAProxy
 * balancing them on one port with a health check on /readyz. Everything lives
 * in one temporary directory and goes with stop(). `npm run cluster`
 * (scripts/cluster.ts), scripts/cluster-test.mjs and the bench start it;
 * docs/deploy.md explains every setting written below.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import {
  appendFileSync,
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import pg from 'pg'
import { findPostgresBin, freePort, initdbArgs } from '../../tests/support/postgres-cluster.ts'
import { buildServer, SERVER_BUNDLE, serverIsStale } from '../build-server.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const execFileAsync = promisify(execFile)

/** The application's database, on the primary and (replicated) on the replica. */
export const DATABASE = 'finplatform'
/** PgBouncer's name for the replica's copy of it. */
export const REPLICA_DATABASE = 'finplatform_replica'

export interface Tools {
  /** /usr/lib/postgresql/<version>/bin */
  postgres: string
  pgbouncer: string
  haproxy: string
}

/** The programs of the postgresql-15, pgbouncer and haproxy packages, or which are missing. */
export function findTools(): { tools: Tools | undefined; missing: string[] } {
  const postgres = findPostgresBin()
  const hasBackup = postgres !== undefined && existsSync(join(postgres, 'pg_basebackup'))
  const pgbouncer = findProgram('pgbouncer')
  const haproxy = findProgram('haproxy')
  const missing = [
    ...(hasBackup ? [] : ['postgresql-15 (initdb, pg_ctl, pg_basebackup)']),
    ...(pgbouncer ? [] : ['pgbouncer']),
    ...(haproxy ? [] : ['haproxy']),
  ]
  return {
    tools:
      missing.length === 0
        ? { postgres: postgres!, pgbouncer: pgbouncer!, haproxy: haproxy! }
        : undefined,
    missing,
  }
}

function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin']
  return dirs
    .filter((dir) => dir.startsWith('/'))
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path))
}

export interface TopologyOptions {
  /** API nodes behind HAProxy (default 3). */
  nodes?: number
  /** HAProxy's port; 0 picks a free one (default 8080). */
  port?: number
  /** HAProxy's address (default 127.0.0.1). */
  host?: string
  /** Settings for every node on top of the topology's (JOBS_LEASE_MS, LOG_LEVEL, …). */
  env?: Record<string, string | undefined>
  /** Seed the demo user (SANDBOX demo) from node-1 (default true). */
  demo?: boolean
  /** Restart a node that exits on its own, as a service manager would (default true). */
  restart?: boolean
  /** Progress and events, one line each (default: none). */
  log?: (line: string) => void
}

export interface ApiNodeInfo {
  name: string
  port: number
  url: string
  pid: number | undefined
  restarts: number
}

export interface Topology {
  /** HAProxy: the app and the API. */
  url: string
  dir: string
  /** Straight to PostgreSQL, bypassing PgBouncer: for operators and the cluster test's checks. */
  primaryUrl: string
  replicaUrl: string
  /** What the nodes use: PgBouncer in transaction pooling, to the primary and to the replica. */
  poolerUrl: string
  poolerReplicaUrl: string
  /** PgBouncer's admin console (SHOW POOLS, SHOW STATS). */
  poolerAdminUrl: string
  /** HAProxy's runtime API (`show stat`, `set server nodes/node-2 state maint`). */
  haproxySocket: string
  nodes: ApiNode[]
  /** Sends one command to HAProxy's runtime API and answers its reply. */
  haproxy(command: string): Promise<string>
  /**
   * Stops everything — HAProxy first (no new requests), the nodes (they drain), PgBouncer,
   * the replica, the primary — and removes the directory.
   */
  stop(): Promise<void>
}

/** Starts the whole topology; on any failure what was started is stopped again. */
export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const { tools, missing } = findTools()
  if (!tools) {
    throw new Error(
      `The cluster needs Debian's ${missing.join(', ')}: apt-get install postgresql-15 pgbouncer haproxy`,
    )
  }
  const log = options.log ?? (() => {})
  const count = options.nodes ?? 3
  // The nodes run the server as `npm start` does: the built bundle, built first when stale.
  if (serverIsStale(ROOT)) {
    log('Building the server (build/server/ is missing or older than its sources)…')
    await buildServer(ROOT)
  }
  const dir = mkdtempSync(join(tmpdir(), 'finplatform-cluster-'))
  const owner = postgresOwner()
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const cleanup = new Cleanup(dir)
  try {
    return await start(tools, dir, owner, cleanup, count, options, log)
  } catch (error) {
    await cleanup.run()
    throw error
  }
}

interface Owner {
  uid: number
  gid: number
}

/** initdb, PostgreSQL and PgBouncer refuse root: as root they run as `postgres`. */
function postgresOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' })
  const uid = id('-u')
  if (uid.status !== 0) throw new Error('Running as root, but there is no `postgres` user.')
  return { uid: Number(uid.stdout.trim()), gid: Number(id('-g').stdout.trim()) }
}

/** What stop() undoes, last first; also run at process exit if stop() never came. */
class Cleanup {
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

async function start(
  tools: Tools,
  dir: string,
  owner: Owner | undefined,
  cleanup: Cleanup,
  count: number,
  options: TopologyOptions,
  log: (line: string) => void,
): Promise<Topology> {
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {}
  const pgTool = (tool: string) => join(tools.postgres, tool)
  const exec = async (file: string, args: string[]) => {
    try {
      await execFileAsync(file, args, { cwd: dir, ...asOwner })
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string }
      throw new Error(`${file} ${args.join(' ')} failed:\n${stderr || stdout || error}`)
    }
  }
  const [primaryPort, replicaPort, poolerPort, ...nodePorts] = await Promise.all(
    Array.from({ length: 3 + count }, () => freePort()),
  )
  const port = options.port === 0 ? await freePort() : (options.port ?? 8080)
  const url = (p: number, database: string) => `postgres://postgres@127.0.0.1:${p}/${database}`

  // 1. The primary: initdb, the replication settings, and the application's database.
  const primaryDir = join(dir, 'primary')
  log('PostgreSQL primary: initdb')
  await exec(pgTool('initdb'), initdbArgs(primaryDir))
  appendFileSync(join(primaryDir, 'postgresql.conf'), POSTGRES_SETTINGS)
  const pgStart = async (data: string, p: number, name: string) => {
    await exec(pgTool('pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, `${name}.log`),
      '-o',
      `-p ${p} -k ${dir}`,
      '-w',
      '-t',
      '120',
      'start',
    ])
    cleanup.add(
      name,
      () => exec(pgTool('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
      () => {
        spawnSync(pgTool('pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], {
          cwd: dir,
          ...asOwner,
        })
      },
    )
  }
  await pgStart(primaryDir, primaryPort!, 'primary')
  await withClient(url(primaryPort!, 'postgres'), (client) =>
    client.query(`create database ${DATABASE}`),
  )

  // 2. The replica: a base backup of the primary that then streams its WAL (-R).
  const replicaDir = join(dir, 'replica')
  log('PostgreSQL replica: pg_basebackup')
  await exec(pgTool('pg_basebackup'), [
    '-D',
    replicaDir,
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-X',
    'stream',
    '-R',
    '-c',
    'fast',
    '--no-sync',
  ])
  await pgStart(replicaDir, replicaPort!, 'replica')

  // 3. PgBouncer in transaction pooling, in front of both.
  log('PgBouncer')
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n')
  const pgbouncerIni = join(dir, 'pgbouncer.ini')
  writeFileSync(pgbouncerIni, pgbouncerSettings(dir, poolerPort!, primaryPort!, replicaPort!))
  if (owner) {
    for (const file of ['userlist.txt', 'pgbouncer.ini']) {
      chownSync(join(dir, file), owner.uid, owner.gid)
    }
  }
  const pgbouncer = daemon(tools.pgbouncer, [pgbouncerIni], join(dir, 'pgbouncer.out'), asOwner)
  cleanup.add(
    'PgBouncer',
    () => stopChild(pgbouncer, 'SIGINT'),
    () => pgbouncer.kill('SIGKILL'),
  )
  await waitFor('PgBouncer', () =>
    withClient(url(poolerPort!, DATABASE), (c) => c.query('select 1')),
  )
  await waitFor('the replica through PgBouncer', () =>
    withClient(url(poolerPort!, REPLICA_DATABASE), (c) => c.query('select 1')),
  )

  // 4. The API nodes, all at once: one applies the migrations, the others wait on its lock.
  const secrets = sharedSecrets()
  const nodes = nodePorts.map(
    (nodePort, index) =>
      new ApiNode(
        `node-${index + 1}`,
        nodePort!,
        {
          SANDBOX: 'true',
          LOG_LEVEL: 'info',
          // HAProxy, on this machine, is the only proxy whose X-Forwarded-For is believed.
          TRUST_PROXY: '127.0.0.1',
          ...options.env,
          ...secrets,
          DEMO_SEED: options.demo !== false && index === 0 ? 'true' : 'false',
          PORT: String(nodePort),
          HOST: '127.0.0.1',
          NODE_NAME: `node-${index + 1}`,
          DATABASE_URL: url(poolerPort!, DATABASE),
          DATABASE_REPLICA_URL: url(poolerPort!, REPLICA_DATABASE),
          // Each node's one LISTEN connection: transaction pooling would not keep it.
          DATABASE_DIRECT_URL: url(primaryPort!, DATABASE),
          DATA_DIR: join(dir, `node-${index + 1}`),
        },
        join(dir, `node-${index + 1}.log`),
        options.restart !== false,
        log,
      ),
  )
  log(`${count} API nodes`)
  for (const node of nodes) node.start()
  cleanup.add(
    'the API nodes',
    async () => {
      await Promise.all(nodes.map((node) => node.stop()))
    },
    () => {
      for (const node of nodes) node.kill('SIGKILL')
    },
  )
  await Promise.all(nodes.map((node) => node.ready()))

  // 5. HAProxy on the one public port, checking each node's /readyz every second.
  log('HAProxy')
  const host = options.host ?? '127.0.0.1'
  const haproxySocket = join(dir, 'haproxy.sock')
  const haproxyCfg = join(dir, 'haproxy.cfg')
  writeFileSync(haproxyCfg, haproxySettings(host, port, haproxySocket, nodes))
  const haproxy = daemon(tools.haproxy, ['-f', haproxyCfg, '-db'], join(dir, 'haproxy.log'), {})
  // Stopped before the nodes: cleanup runs last-added first.
  cleanup.add(
    'HAProxy',
    () => stopChild(haproxy, 'SIGUSR1'),
    () => haproxy.kill('SIGKILL'),
  )
  const publicUrl = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`
  await waitFor('HAProxy', async () => {
    const response = await fetch(`${publicUrl}/readyz`)
    if (!response.ok) throw new Error(`HAProxy answered ${response.status}`)
  })

  return {
    url: publicUrl,
    dir,
    primaryUrl: url(primaryPort!, DATABASE),
    replicaUrl: url(replicaPort!, DATABASE),
    poolerUrl: url(poolerPort!, DATABASE),
    poolerReplicaUrl: url(poolerPort!, REPLICA_DATABASE),
    poolerAdminUrl: url(poolerPort!, 'pgbouncer'),
    haproxySocket,
    nodes,
    haproxy: (command) => haproxyCommand(haproxySocket, command),
    stop: () => cleanup.run(),
  }
}

/**
 * Appended to the primary's postgresql.conf; pg_basebackup copies it to the replica.
 * Durable as in production (fsync, synchronous_commit on); replication is asynchronous.
 */
const POSTGRES_SETTINGS = `
# --- finplatform cluster (scripts/cluster/topology.ts, docs/deploy.md) ---
listen_addresses = '127.0.0.1'
# PgBouncer holds at most 2 x (default_pool_size + reserve_pool_size) server connections.
max_connections = 100
wal_level = replica
max_wal_senders = 5
# A replica that falls behind for a moment still finds the WAL it needs.
wal_keep_size = '256MB'
hot_standby = on
# On the replica: vacuum on the primary keeps rows a long read (a CSV export) still needs.
hot_standby_feedback = on
`

function pgbouncerSettings(dir: string, port: number, primary: number, replica: number) {
  return `;; finplatform cluster (scripts/cluster/topology.ts, docs/deploy.md)
[databases]
${DATABASE} = host=127.0.0.1 port=${primary} dbname=${DATABASE}
${REPLICA_DATABASE} = host=127.0.0.1 port=${replica} dbname=${DATABASE}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
admin_users = postgres
; A server connection serves one transaction, then the next client's.
pool_mode = transaction
; Every node opens up to 10 (node-postgres' pool); room for 40 nodes.
max_client_conn = 400
; Server connections per database: about what the primary's cores can keep busy.
default_pool_size = 20
reserve_pool_size = 5
reserve_pool_timeout = 3
; A client waits this long for a server connection before its query fails.
query_wait_timeout = 30
server_idle_timeout = 60
logfile = ${join(dir, 'pgbouncer.log')}
pidfile = ${join(dir, 'pgbouncer.pid')}
`
}

function haproxySettings(host: string, port: number, socket: string, nodes: ApiNode[]) {
  return `# finplatform cluster (scripts/cluster/topology.ts, docs/deploy.md)
global
  maxconn 4096
  # A soft stop waits for requests in hand; idle keep-alive clients do not hold it longer.
  hard-stop-after 10s
  stats socket ${socket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  timeout http-keep-alive 10s
  # A request a node refused to connect for (it died, before the check noticed) goes to
  # another node; so does one it answered 503 while shutting down (Fastify's answer to new
  # requests once close() began: nothing was done). Never an answer cut off mid-way: the
  # client retries that itself, under its idempotency key.
  retries 3
  option redispatch 1
  retry-on conn-failure 503

frontend api
  bind ${host}:${port}
  option forwardfor
  default_backend nodes

backend nodes
  # Long answers (CSV exports) must not pile up on one node.
  balance leastconn
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
  # Down after 2 failed checks a second apart, back after 2 good ones.
  default-server inter 1s fall 2 rise 2
${nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port} check`).join('\n')}
`
}

/** The keys every node must share (tokens signed by one are checked by another). */
function sharedSecrets(): Record<string, string> {
  const key = () => randomBytes(32).toString('base64url')
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  return {
    JWT_SECRET: key(),
    REFRESH_TOKEN_SECRET: key(),
    ADDRESS_SEED_KEY: key(),
    CARD_DATA_KEY: key(),
    CARD_CVK: key(),
    PROOF_KEYS_KEY: key(),
    // A quote signed by one node is placed on another.
    QUOTE_KEYS: key(),
    CARD_SECRET_PRIVATE_KEY: privateKey,
  }
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
function daemon(file: string, args: string[], output: string, identity: Partial<Owner>) {
  const out = openSync(output, 'a')
  const child = spawn(file, args, { stdio: ['ignore', out, out], detached: true, ...identity })
  closeSync(out)
  return child
}

/** Sends `signal`, waits up to 30 s for the exit, then SIGKILL. */
function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
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

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end().catch(() => {})
  }
}

async function waitFor(what: string, probe: () => Promise<unknown>, timeoutMs = 120_000) {
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
