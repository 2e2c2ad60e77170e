/**
 * Orders per second through HAProxy on the scale-out topology (scripts/cluster): the same
 * cluster — primary, streaming replica, PgBouncer, three API nodes (the built server) —
 * measured with one node in rotation and with all three, interleaved (1, 3, 1, 3, 1, 3)
 * after a warm-up; median and spread of each, and their ratio round by round. Each load
 * connection is a user of its own with a funded wallet, so orders contend on the database,
 * not on one balance row. Skipped, with a row saying so, without Debian's postgresql-15,
 * pgbouncer and haproxy.
 */
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { nodeStats } from '../scripts/cluster/processes.ts'
import { findTools } from '../scripts/cluster/tools.ts'
import { startTopology, type Topology } from '../scripts/cluster/topology.ts'
import { openDatabase } from '../server/infra/db/database.ts'
import { fundBenchWallet } from './fund.ts'
import { DURATION_S, median, ROUNDS, type Row, skippedRow, valueRow } from './lib.ts'
import { closedLoop, type Trader } from './orders.ts'

/** Load connections, each its own user; enough to keep three nodes busy. */
const USERS = 24

export async function measureCluster(): Promise<Row[]> {
  const { tools, missing } = findTools()
  if (!tools)
    return [skippedRow('orders through HAProxy, 1 and 3 nodes', `no ${missing.join(', ')}`)]
  const topology = await startTopology({
    nodes: 3,
    port: 0,
    demo: false,
    restart: false,
    env: {
      LOG_LEVEL: 'warn',
      JOBS_POLL_MS: '50',
      RATES_SANDBOX_LATENCY_MS: '0',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    },
  })
  try {
    const users = await benchUsers(topology, USERS)
    await inRotation(topology, 3)
    await closedLoop(topology.url, users, Math.min(DURATION_S, 3)) // warm-up
    const runs: Record<1 | 3, number[]> = { 1: [], 3: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const nodes of [1, 3] as const) {
        await inRotation(topology, nodes)
        runs[nodes].push(await closedLoop(topology.url, users, DURATION_S))
      }
    }
    const ratios = runs[3].map((three, round) => three / runs[1][round]!)
    return [
      valueRow(`orders through HAProxy, 1 node (${USERS} users)`, runs[1], 'orders/s', {
        goal: 'see ratio',
      }),
      valueRow(`orders through HAProxy, 3 nodes (${USERS} users)`, runs[3], 'orders/s', {
        goal: 'see ratio',
      }),
      {
        ...valueRow('ratio 3 nodes ÷ 1 node', ratios, '×', { digits: 2 }),
        // Three nodes on one machine share its cores: the ratio says more than a pass/fail.
        goal: '> 1 where the nodes have cores of their own',
        met: median(ratios) > 1 ? 'yes' : '',
      },
    ]
  } finally {
    await topology.stop()
  }
}

/** Users signed up through HAProxy, each with an exchange wallet funded on the primary. */
async function benchUsers(topology: Topology, count: number): Promise<Trader[]> {
  const headers = {
    'x-tenant-id': DEMO_TENANT_ID,
    'x-app-env': 'web',
    'content-type': 'application/json',
  }
  const primary = await openDatabase({ databaseUrl: topology.primaryUrl, dataDir: topology.dir })
  try {
    const users: Trader[] = []
    for (let i = 0; i < count; i++) {
      const signUp = await fetch(`${topology.url}/api/v2/auth/sign-up/password/email`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          email: `cluster-bench-${i}-${crypto.randomUUID()}@example.com`,
          password: 'correct horse battery staple',
        }),
      })
      if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}`)
      const { access_token } = (await signUp.json()) as { access_token: string }
      const created = await fetch(`${topology.url}/api/v2/wallets`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ type: 'exchange' }),
      })
      if (created.status !== 201) throw new Error(`wallet answered ${created.status}`)
      const walletId = ((await created.json()) as { uuid: string }).uuid
      await fundBenchWallet(primary.db, walletId)
      users.push({ token: access_token, walletId })
    }
    return users
  } finally {
    await primary.close()
  }
}

/** The first `count` nodes in rotation, the rest in maintenance (HAProxy's runtime API). */
async function inRotation(topology: Topology, count: number) {
  for (const [index, node] of topology.nodes.entries()) {
    await topology.haproxy(
      `set server nodes/${node.name} state ${index < count ? 'ready' : 'maint'}`,
    )
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    const up = (await nodeStats(topology)).filter((row) => row.status === 'UP').length
    if (up === count) return
    if (Date.now() > deadline) throw new Error(`${up} nodes up, ${count} wanted`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
