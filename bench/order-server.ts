/**
 * The app under the orders load, in its own process: embedded PGlite in memory,
 * or BENCH_DATABASE_URL. Signs a user up, gives one wallet a large USDT (Tron)
 * balance straight through the ledger, and prints `{ appUrl, accessToken,
 * walletUuid }` as one JSON line; then serves (and runs the order jobs) until killed.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_TENANT_ID } from '../contract/tenancy.ts'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { fundBenchWallet } from './fund.ts'

const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-orders-')),
  DATABASE_URL: process.env.BENCH_DATABASE_URL || 'memory://',
  SANDBOX: 'true',
  DEMO_SEED: 'false',
  LOG_LEVEL: 'silent',
  DIST_DIR: join(tmpdir(), 'bench-no-dist'),
  RATES_SANDBOX_LATENCY_MS: '0',
  JOBS_POLL_MS: '50',
})
const app = await buildApp(config)
const appUrl = await app.listen({ port: 0, host: '127.0.0.1' })

const headers = { 'x-tenant-id': DEMO_TENANT_ID, 'x-app-env': 'web' }
const signUp = await app.inject({
  method: 'POST',
  url: '/api/v2/auth/sign-up/password/email',
  headers,
  payload: { email: 'orders-bench@example.com', password: 'correct horse battery staple' },
})
const { access_token } = signUp.json() as { access_token: string }
const created = await app.inject({
  method: 'POST',
  url: '/api/v2/wallets',
  headers: { ...headers, authorization: `Bearer ${access_token}` },
  payload: { type: 'exchange' },
})
const walletUuid = (created.json() as { uuid: string }).uuid

await fundBenchWallet(app.db, walletUuid)

console.log(JSON.stringify({ appUrl, accessToken: access_token, walletUuid }))
