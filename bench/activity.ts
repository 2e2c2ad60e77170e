/**
 * The activity feed over a long feed (issue 14): its first page (what every
 * home screen reads), a wallet's first page, and a page nine tenths of the way
 * down by cursor, each against an authenticated `GET /api/v2/user` on the
 * same server in the same round — keyset pages, no count, so each should cost
 * about what /user does whatever the feed's length. Issue 31 adds searches —
 * a rare payee's name (`q`, a substring: the trigram index), and a narrow
 * amount range of pending items in a date range — each against the first
 * page in the same round: a search answers in under 3× the first page. The items are written
 * straight into the database while the server is stopped (as bench/history.ts
 * does), on the server as `npm start` runs it (embedded PGlite on disk).
 */
import { sql } from 'kysely'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { insertGeneratedActivities } from '../server/domain/activity/activity-fixtures.ts'
import { encodeCursor } from '../server/domain/activity/rules.ts'
import { openDatabase } from '../server/infra/db/database.ts'
import {
  call,
  createWallet,
  DURATION_S,
  dataDir,
  goalRow,
  load,
  ROUNDS,
  type Row,
  signUp,
  startServer,
  TENANT,
} from './lib.ts'

const ITEMS = Number(process.env.BENCH_ACTIVITY_ITEMS ?? 100_000)

export async function measureActivity(): Promise<Row[]> {
  const dir = dataDir('activity')
  const first = await startServer({ dataDir: dir })
  const token = await signUp(first.url)
  const walletId = await createWallet(first.url, token)
  const otherWalletId = await createWallet(first.url, token, 'trading')
  const { id: userId } = await call<{ id: string }>(first.url, token, 'GET', '/api/v2/user')
  await first.stop()

  // The server is stopped: the embedded database is free for this process.
  const database = await openDatabase({ databaseUrl: undefined, dataDir: dir })
  let deepCursor: string
  try {
    await insertGeneratedActivities(
      database.db,
      { tenantId: DEMO_TENANT_ID, userId, walletId, otherWalletId },
      ITEMS,
    )
    // A payee paid now and then (a dozen times in the feed): what a person searches for.
    await sql`
      update activities set counterparty_name = 'Northwind Traders'
      where user_id = ${userId} and type = 'send'
        and extract(epoch from created_at)::bigint % 4001 = 0`.execute(database.db)
    // Where a reader who scrolled through nine tenths of the feed is.
    const deep = await database.db
      .selectFrom('activities')
      .select(['id', (eb) => eb.cast<string>('created_at', 'text').as('at')])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(Math.floor(ITEMS * 0.9))
      .limit(1)
      .executeTakeFirstOrThrow()
    deepCursor = encodeCursor({ at: deep.at, id: deep.id })
  } finally {
    await database.close()
  }

  const server = await startServer({ dataDir: dir })
  try {
    const headers = { ...TENANT, authorization: `Bearer ${token}` }
    const feed = `${server.url}/api/v2/activity?limit=20`
    const pages = [
      ['first page', feed],
      ['a wallet’s first page', `${feed}&wallet_uuid=${walletId}`],
      ['a page 90 % down', `${feed}&cursor=${deepCursor}`],
    ] as const
    // Pending every eleventh item; amounts scattered over 0.001–100 USDT (activity-fixtures.ts).
    const may = 'from=2025-05-01T00:00:00Z&to=2025-06-01T00:00:00Z'
    const searches = [
      ['q = a payee paid a dozen times', `${feed}&q=northwind`],
      ['an amount of 55.00–55.10 USDT in May', `${feed}&min=55&max=55.1&currency=USDT&${may}`],
      ['pending in May', `${feed}&status=pending&${may}`],
    ] as const
    const user = `${server.url}/api/v2/user`
    // Warm-up: the first call of each route, the statistics job's first round.
    await load(user, headers, 2)
    for (const [, url] of [...pages, ...searches]) await load(url, headers, 1)

    const userRps: number[] = []
    const pageRps = pages.map(() => [] as number[])
    const searchRps = searches.map(() => [] as number[])
    for (let round = 0; round < ROUNDS; round++) {
      userRps.push(await load(user, headers, DURATION_S))
      for (const [i, [, url]] of pages.entries()) {
        pageRps[i]!.push(await load(url, headers, DURATION_S))
      }
      for (const [i, [, url]] of searches.entries()) {
        searchRps[i]!.push(await load(url, headers, DURATION_S))
      }
    }
    const items = ITEMS.toLocaleString('en')
    return [
      ...pages.map(([name], i) =>
        goalRow(
          `ratio GET /api/v2/activity, ${name} of 20 (${items} items) ÷ GET /user (PGlite)`,
          pageRps[i]!.map((rps, round) => rps / userRps[round]!),
          { at: 'least', bound: 0.25 },
        ),
      ),
      // Time per answer, the search's over the first page's: the first page's rps over the search's.
      ...searches.map(([name], i) =>
        goalRow(
          `ratio GET /api/v2/activity search (${name}, ${items} items) time ÷ first page time (PGlite)`,
          searchRps[i]!.map((rps, round) => pageRps[0]![round]! / rps),
          { at: 'most', bound: 3 },
        ),
      ),
    ]
  } finally {
    await server.stop()
  }
}
