/**
 * The servers under load, in their own process so the load generator does not
 * share their event loop: the real app (embedded PGlite in memory, or
 * BENCH_DATABASE_URL) and a bare Fastify route as the yardstick. Prints the
 * two addresses, a signed-in user's token and a wallet of theirs holding
 * BENCH_CSV_ROWS transactions (100 000 by default; 0 skips the CSV row), and
 * that user's activity feed of BENCH_ACTIVITY_ITEMS items (100 000; 0 skips
 * its rows) with a cursor deep in it, as one JSON line, then serves until killed.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { insertGeneratedActivities } from '../server/domain/activity/activity-fixtures.ts'
import { encodeCursor } from '../server/domain/activity/rules.ts'
import { insertGeneratedTransactions } from '../server/domain/transactions/transaction-fixtures.ts'

const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
  DATABASE_URL: process.env.BENCH_DATABASE_URL || 'memory://',
  LOG_LEVEL: 'silent',
  DIST_DIR: join(tmpdir(), 'bench-no-dist'),
})
const app = await buildApp(config)
const appUrl = await app.listen({ port: 0, host: '127.0.0.1' })

const bare = Fastify({ logger: false })
bare.get('/bare', async () => ({ ok: true }))
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' })

const signUp = await app.inject({
  method: 'POST',
  url: '/api/v2/auth/sign-up/password/email',
  headers: { 'x-tenant-id': DEMO_TENANT_ID, 'x-app-env': 'web' },
  payload: { email: 'bench@example.com', password: 'correct horse battery staple' },
})
const { access_token } = signUp.json() as { access_token: string }

const csvRows = Number(process.env.BENCH_CSV_ROWS ?? 100_000)
const created = await app.inject({
  method: 'POST',
  url: '/api/v2/wallets',
  headers: {
    'x-tenant-id': DEMO_TENANT_ID,
    'x-app-env': 'web',
    authorization: `Bearer ${access_token}`,
  },
  payload: { type: 'personal' },
})
const walletUuid = (created.json() as { uuid: string }).uuid
// One INSERT … SELECT generate_series: seconds even for 100 000 rows.
if (csvRows > 0) {
  await insertGeneratedTransactions(
    app.db,
    { tenantId: DEMO_TENANT_ID, walletId: walletUuid },
    csvRows,
  )
}

const headers = {
  'x-tenant-id': DEMO_TENANT_ID,
  'x-app-env': 'web',
  authorization: `Bearer ${access_token}`,
}
const activityItems = Number(process.env.BENCH_ACTIVITY_ITEMS ?? 100_000)
let deepCursor: string | null = null
if (activityItems > 0) {
  const other = await app.inject({
    method: 'POST',
    url: '/api/v2/wallets',
    headers,
    payload: { type: 'trading' },
  })
  const wallet = await app.db
    .selectFrom('wallets')
    .select('user_id')
    .where('id', '=', walletUuid)
    .executeTakeFirstOrThrow()
  await insertGeneratedActivities(
    app.db,
    {
      tenantId: DEMO_TENANT_ID,
      userId: wallet.user_id,
      walletId: walletUuid,
      otherWalletId: (other.json() as { uuid: string }).uuid,
    },
    activityItems,
  )
  // Where a reader who scrolled through nine tenths of the feed is.
  const deep = await app.db
    .selectFrom('activities')
    .select(['id', (eb) => eb.cast<string>('created_at', 'text').as('at')])
    .where('user_id', '=', wallet.user_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(Math.floor(activityItems * 0.9))
    .limit(1)
    .executeTakeFirstOrThrow()
  deepCursor = encodeCursor({ at: deep.at, id: deep.id })
}

console.log(
  JSON.stringify({
    appUrl,
    bareUrl,
    accessToken: access_token,
    engine: config.databaseUrl,
    walletUuid,
    csvRows,
    activityItems,
    deepCursor,
  }),
)
