/**
 * Authenticated reads: `GET /api/v2/user` (the session check, the tenant, the
 * answer's schema, the request's log line) against a bare Fastify route in a
 * process of its own, on the server as `npm start` runs it (embedded PGlite
 * on disk, default log level) and on PostgreSQL. Each round loads the three
 * one after the other; the ratios are taken round by round.
 */
import {
  type Cluster,
  DURATION_S,
  dataDir,
  goalRow,
  load,
  ROUNDS,
  type Row,
  type Server,
  signUp,
  startBare,
  startServer,
  TENANT,
  valueRow,
} from './lib.ts'

export async function measureReads(postgres: Cluster | undefined): Promise<Row[]> {
  const servers: Server[] = []
  try {
    const bare = await startBare()
    servers.push(bare)
    const subjects: { name: string; server: Server; token: string }[] = []
    const embedded = await startServer({ dataDir: dataDir('reads') })
    servers.push(embedded)
    subjects.push({ name: 'PGlite', server: embedded, token: await signUp(embedded.url) })
    if (postgres) {
      const server = await startServer({
        dataDir: dataDir('reads-pg'),
        databaseUrl: await postgres.database('reads'),
      })
      servers.push(server)
      subjects.push({ name: 'PostgreSQL', server, token: await signUp(server.url) })
    }
    const user = (subject: (typeof subjects)[number], seconds: number) =>
      load(
        `${subject.server.url}/api/v2/user`,
        { ...TENANT, authorization: `Bearer ${subject.token}` },
        seconds,
      )

    // Warm-up: connections, compiled code, the first call of each route.
    await load(`${bare.url}/bare`, {}, 1)
    for (const subject of subjects) await user(subject, 2)

    const bareRps: number[] = []
    const rps = new Map(subjects.map((subject) => [subject.name, [] as number[]]))
    for (let round = 0; round < ROUNDS; round++) {
      bareRps.push(await load(`${bare.url}/bare`, {}, DURATION_S))
      for (const subject of subjects) rps.get(subject.name)!.push(await user(subject, DURATION_S))
    }

    const rows: Row[] = [
      valueRow('bare Fastify route, own process', bareRps, 'req/s', { goal: 'yardstick' }),
    ]
    // Issue 29: the session check answers from memory (server/domain/auth/session-cache.ts).
    const goals: Record<string, { step: number; bound: number }> = {
      PostgreSQL: { step: 0.3, bound: 0.5 },
      PGlite: { step: 0.25, bound: 0.4 },
    }
    for (const subject of [...subjects].reverse()) {
      const values = rps.get(subject.name)!
      const how = subject.name === 'PGlite' ? 'PGlite on disk as npm start' : 'PostgreSQL'
      rows.push(
        valueRow(`GET /api/v2/user, authenticated (${how})`, values, 'req/s', {
          goal: 'see ratio',
        }),
        goalRow(
          `ratio user ÷ bare (${subject.name})`,
          values.map((value, round) => value / bareRps[round]!),
          { at: 'least', ...goals[subject.name]! },
        ),
      )
    }
    return rows
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}
