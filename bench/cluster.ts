/**
 * Orders per second through HAProxy on the scale-out topology (scripts/cluster): the same
 * cluster — primary, streaming replica, PgBouncer, three API nodes — measured with one node
 * in rotation and with all three, interleaved (1, 3, 1, 3, 1, 3) after a warm-up; median
 * and spread of each. Each load connection is a user of its own with a funded wallet, so
 * orders contend on the database, not on one balance row. Skipped, with a row saying so,
 * without Debian's postgresql-15, pgbouncer and haproxy.
 */
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { findTools, nodeStats, startTopology, type Topology } from '../scripts/cluster/topology.ts'
import { openDatabase } from '../server/infra/db/database.ts'
import { fundBenchWallet } from './fund.ts'
import { type BenchRow, loadOrders, type OrderLoad, type Ready } from './orders.ts'

/** Load connections, each its own user; enough to keep three nodes busy. */
const CONNECTIONS = 24
const ROUNDS = 3

export async function measureCluster(seconds: number): Promise<BenchRow[]> {
  const { tools, missing } = findTools()
  if (!tools) {
    return [
      {
        measure: 'orders through HAProxy, 1 and 3 nodes',
        value: `skipped: no ${missing.join(', ')}`,
        target: '—',
      },
    ]
  }
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
    const users = await benchUsers(topology, CONNECTIONS)
    await inRotation(topology, 3)
    await loadOrders(users, Math.min(seconds, 3), CONNECTIONS) // warm-up
    const runs: Record<1 | 3, OrderLoad[]> = { 1: [], 3: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const nodes of [1, 3] as const) {
        await inRotation(topology, nodes)
        runs[nodes].push(await loadOrders(users, seconds, CONNECTIONS))
      }
    }
    const one = summary(runs[1])
    const three = summary(runs[3])
    return [
      {
        measure: `orders through HAProxy, 1 node (${CONNECTIONS} users)`,
        value: one.text,
        target: '—',
      },
      {
        measure: `orders through HAProxy, 3 nodes (${CONNECTIONS} users)`,
        value: three.text,
        target: '—',
      },
      {
        measure: 'ratio 3 nodes / 1 node',
        value: `${(three.median / one.median).toFixed(2)} ×`,
        target: '> 1 × where the nodes have cores of their own',
      },
    ]
  } finally {
    await topology.stop()
  }
}

/** Users signed up through HAProxy, each with an exchange wallet funded on the primary. */
async function benchUsers(topology: Topology, count: number): Promise<Ready[]> {
  const headers = {
    'x-tenant-id': DEMO_TENANT_ID,
    'x-app-env': 'web',
    'content-type': 'application/json',
  }
  const primary = await openDatabase({ databaseUrl: topology.primaryUrl, dataDir: topology.dir })
  try {
    const users: Ready[] = []
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
      const walletUuid = ((await created.json()) as { uuid: string }).uuid
      await fundBenchWallet(primary.db, walletUuid)
      users.push({ appUrl: topology.url, accessToken: access_token, walletUuid })
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

function summary(loads: OrderLoad[]) {
  const rates = loads.map((load) => load.placed / load.seconds).sort((a, b) => a - b)
  const median = rates[Math.floor(rates.length / 2)]!
  const spread = rates[rates.length - 1]! - rates[0]!
  const settle = Math.max(...loads.map((load) => load.settleSeconds))
  return {
    median,
    text: `${median.toFixed(0)} orders/s placed (median of ${rates.length}, spread ${spread.toFixed(0)}), all settled within ${settle.toFixed(1)} s`,
  }
}
