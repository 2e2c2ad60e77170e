/**
 * `npm run cluster`: the product scaled out on this machine — a PostgreSQL primary and a
 * streaming replica, PgBouncer (transaction pooling), N API nodes and HAProxy in front —
 * in a temporary directory, until Ctrl-C. Needs Debian's postgresql-15, pgbouncer and
 * haproxy. docs/deploy.md describes the topology and its settings.
 *
 *   npm run cluster                       three nodes, the app on http://127.0.0.1:8080
 *   npm run cluster -- --nodes 5          five nodes
 *   npm run cluster -- --port 0 --json    a free port; one JSON line of addresses (scripts)
 */
import { parseArgs } from 'node:util'
import { DEFAULT_DEMO_PASSWORD } from '../server/config.ts'
import { ensureBuilt } from './build-state.mjs'
import { findTools } from './cluster/tools.ts'
import { startTopology, type Topology } from './cluster/topology.ts'

const USAGE = `usage: npm run cluster -- [--nodes N] [--port P] [--host ADDRESS] [--json] [--no-build]
  --nodes N        API nodes behind HAProxy, 1 to 32 (default 3)
  --port P         HAProxy's port, 0 for any free one (default 8080)
  --host ADDRESS   HAProxy's address (default 127.0.0.1; 0.0.0.0 for the whole network)
  --json           print one JSON line of addresses and node pids instead of the summary
  --no-build       serve whatever dist/ holds instead of building the app when it is stale
Settings in the environment (JOBS_LEASE_MS, LOG_LEVEL, …) reach every node.`

function fail(message: string, code = 2): never {
  console.error(message)
  process.exit(code)
}

let args: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    options: {
      nodes: { type: 'string', default: '3' },
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      json: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
}
try {
  args = parse()
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`)
}
const { values } = args
if (values.help) fail(USAGE, 0)
const nodes = Number(values.nodes)
const port = Number(values.port)
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 32) fail(`--nodes must be 1 to 32\n${USAGE}`)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0 to 65535\n${USAGE}`)

const { missing } = findTools()
if (missing.length > 0) {
  fail(
    `The cluster needs Debian's ${missing.join(', ')}.\n` +
      'Install them with: apt-get install postgresql-15 pgbouncer haproxy',
    1,
  )
}

// In --json mode stdout carries the one line a script reads; progress goes to stderr.
const say = (line: string) => (values.json ? console.error(line) : console.log(line))
if (!values['no-build']) await ensureBuilt()

const started = performance.now()
let topology: Topology | undefined
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    // Still starting: exit, and the topology's exit hook kills what it started.
    if (!topology) process.exit(130)
    if (stopping) return
    stopping = true
    say('Stopping: HAProxy, then the nodes (they finish what they hold), PgBouncer, PostgreSQL…')
    await topology.stop()
    say('Stopped; the temporary directory is removed.')
    process.exit(0)
  })
}
try {
  topology = await startTopology({
    nodes,
    port,
    host: values.host,
    env: process.env,
    log: (line) => say(`  ${line}`),
  })
} catch (error) {
  fail(`The cluster did not start: ${(error as Error).message}`, 1)
}

if (values.json) {
  console.log(
    JSON.stringify({
      url: topology.url,
      dir: topology.dir,
      primaryUrl: topology.primaryUrl,
      replicaUrl: topology.replicaUrl,
      poolerUrl: topology.poolerUrl,
      poolerAdminUrl: topology.poolerAdminUrl,
      haproxySocket: topology.haproxySocket,
      nodes: topology.nodes.map((node) => node.info()),
    }),
  )
} else {
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const nodeLines = topology.nodes.map(
    (node) => `    ${node.name.padEnd(8)} ${node.url}  (log ${node.logFile})`,
  )
  console.log(
    [
      '',
      `Cluster up in ${seconds} s — ${topology.url}`,
      '',
      `  app and API   ${topology.url}   HAProxy, ${nodes} node${nodes === 1 ? '' : 's'}, checks GET /readyz every second`,
      '  nodes         each serves /metrics, /readyz and /healthz on its own port',
      ...nodeLines,
      `  PgBouncer     ${topology.poolerUrl}   transaction pooling (replica: ${topology.poolerReplicaUrl})`,
      `  primary       ${topology.primaryUrl}`,
      `  replica       ${topology.replicaUrl}   streaming, hot standby`,
      `  directory     ${topology.dir}`,
      '',
      `Demo sign-in: demo@finplatform.local / ${process.env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD}`,
      'Ctrl-C stops everything.',
    ].join('\n'),
  )
}
