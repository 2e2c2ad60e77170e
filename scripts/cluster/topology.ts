/**
 * The scale-out topology on one machine, from Debian's packages: a PostgreSQL
 * primary, a streaming replica of it (pg_basebackup), PgBouncer in transaction
 * pooling in front of both, N API nodes (`server/main.ts`, built), and HAProxy
 * balancing them on one port with a health check on /readyz. Everything lives
 * in one temporary directory and goes with stop(). `npm run cluster`
 * (scripts/cluster.ts), scripts/cluster-test.mjs and the bench start it.
 * Beside it: tools.ts finds the programs, config-files.ts writes their settings
 * (docs/deploy.md explains each), secrets.ts makes the keys the nodes share, and
 * processes.ts starts, watches and stops them.
 */
import { execFile, spawnSync } from 'node:child_process'
import { appendFileSync, chownSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort, initdbArgs } from '../../tests/support/postgres-cluster.ts'
import { buildServer, serverIsStale } from '../build-server.mjs'
import {
  DATABASE,
  haproxySettings,
  POSTGRES_SETTINGS,
  pgbouncerSettings,
  REPLICA_DATABASE,
} from './config-files.ts'
import {
  ApiNode,
  Cleanup,
  daemon,
  haproxyCommand,
  type Owner,
  postgresOwner,
  ROOT,
  stopChild,
  waitFor,
  withClient,
} from './processes.ts'
import { sharedSecrets } from './secrets.ts'
import { findTools, type Tools } from './tools.ts'

const execFileAsync = promisify(execFile)

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
