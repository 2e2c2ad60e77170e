import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../contract/activity.ts'
import type { CurrencyList } from '../../contract/catalog.ts'
import { DEMO_TENANT_ID } from '../../contract/tenancy.ts'
import type { TransactionList, Wallet } from '../../contract/wallets.ts'
import { insertGeneratedActivities } from '../domain/activity/activity-fixtures.ts'
import { findUserByEmail } from '../domain/auth/repository.ts'
import { credit, USDT_TRON } from '../domain/ledger/ledger-test-support.ts'
import { walletAccounts } from '../domain/ledger/service.ts'
import { insertTransactions } from '../domain/transactions/transaction-fixtures.ts'
import { copyPostgresDatabase, provision } from '../test-databases.ts'
import {
  bearer,
  createTestApp,
  createTestAppOn,
  createWallet,
  describeServer,
  headers,
  signUp,
  uniqueEmail,
} from '../test-support.ts'
import { type Database, openDatabase } from './db/database.ts'

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

describeServer('reads that tolerate lag', () => {
  it('without DATABASE_REPLICA_URL they read the primary, and no replica is measured', async () => {
    const app = await createTestApp()
    try {
      expect(app.dbRead).toBe(app.db)
      const metrics = await app.inject({ method: 'GET', url: '/metrics' })
      expect(metrics.body).toContain('db_replica_misses_total')
      expect(metrics.body).not.toContain('db_replica_lag_seconds')
    } finally {
      await app.close()
    }
  })

  if (!onPostgres) return

  /**
   * The replica is a copy of the primary's database taken at one moment, which then never
   * moves on: a replica lagging for ever. What a page shows says which database answered.
   */
  let place: Awaited<ReturnType<typeof provision>>
  let copy: Awaited<ReturnType<typeof copyPostgresDatabase>>
  let replica: Database
  let app: FastifyInstance
  let token: string
  let walletId: string
  let userId: string
  const scope = () => ({ tenantId: DEMO_TENANT_ID, walletId })
  const get = <T>(url: string, auth = `Bearer ${token}`) =>
    app
      .inject({ method: 'GET', url, headers: headers({ authorization: auth }) })
      .then((response) => {
        expect(response.statusCode, response.body).toBe(200)
        return response
      })
      .then((response) => ({ body: response.body, json: () => response.json<T>() }))

  beforeAll(async () => {
    place = await provision({ migrated: true })
    const before = await createTestAppOn(place)
    const email = uniqueEmail('replica')
    try {
      token = (await signUp(before, { email, kyc: false })).access_token
      walletId = (await createWallet(before, token)).uuid
      userId = (await findUserByEmail(before.db, DEMO_TENANT_ID, email))!.id
      const accounts = (await walletAccounts(before.db, DEMO_TENANT_ID, walletId))!
      await credit(before.db, DEMO_TENANT_ID, accounts.user_wallet, USDT_TRON, 10_000_000n)
    } finally {
      await before.close()
    }
    copy = await copyPostgresDatabase(place.databaseUrl)
    replica = await openDatabase({ databaseUrl: copy.url, dataDir: place.dataDir })
    app = await createTestAppOn(place, {
      DATABASE_REPLICA_URL: copy.url,
      NODE_NAME: 'reader',
    })
  })
  afterAll(async () => {
    await app?.close()
    await replica?.close()
    await copy?.drop()
    await place?.dispose()
  })

  it('history, its CSV, the activity feed and the catalogue come from the replica; balances after a write from the primary', async () => {
    const [onlyOnReplica] = await insertTransactions(replica.db, scope(), [{}])
    const [onlyOnPrimary] = await insertTransactions(app.db, scope(), [{}])
    const accounts = (await walletAccounts(app.db, DEMO_TENANT_ID, walletId))!
    await credit(app.db, DEMO_TENANT_ID, accounts.user_wallet, USDT_TRON, 5_000_000n)

    // The balance right after the write: the primary's 15, not the replica's 10.
    const wallet = (await get<Wallet>(`/api/v2/wallets/${walletId}`)).json()
    expect(wallet.balances.find((balance) => balance.currency === 'USDT')?.available).toBe(
      '15.000000',
    )

    const page = (
      await get<TransactionList>(`/api/v2/wallets/${walletId}/transactions?limit=50`)
    ).json()
    const ids = page.data.map((record) => record.uuid)
    expect(ids).toContain(onlyOnReplica)
    expect(ids).not.toContain(onlyOnPrimary)

    const csv = (await get(`/api/v1/wallets/transactions/${walletId}/csv`, token)).body
    expect(csv).toContain(onlyOnReplica)
    expect(csv).not.toContain(onlyOnPrimary)

    const owner = { tenantId: DEMO_TENANT_ID, userId, walletId, otherWalletId: walletId }
    await insertGeneratedActivities(replica.db, owner, 2)
    await insertGeneratedActivities(app.db, owner, 3)
    const feed = (await get<ActivityPage>('/api/v2/activity?limit=20')).json()
    const replicaItems = await replica.db
      .selectFrom('activities')
      .select('id')
      .where('user_id', '=', userId)
      .execute()
    expect(feed.data.map((item) => item.id).sort()).toEqual(
      replicaItems.map((item) => item.id).sort(),
    )

    await replica.db
      .updateTable('currencies')
      .set({ name: 'Tether (as the replica has it)' })
      .where('uuid', '=', USDT_TRON)
      .execute()
    const currencies = (await get<CurrencyList>('/api/v2/currencies?code=USDT')).json()
    expect(currencies.data.find((currency) => currency.uuid === USDT_TRON)?.name).toBe(
      'Tether (as the replica has it)',
    )
  })

  it('what the replica does not hold yet is asked of the primary: a new wallet, a new record', async () => {
    const misses = async () =>
      Number(
        /^db_replica_misses_total\{[^}]*\} (\d+)$/m.exec(
          (await app.inject({ method: 'GET', url: '/metrics' })).body,
        )?.[1],
      )
    const before = await misses()
    const fresh = await createWallet(app, token)
    const [record] = await insertTransactions(app.db, { ...scope(), walletId: fresh.uuid }, [{}])

    const page = (await get<TransactionList>(`/api/v2/wallets/${fresh.uuid}/transactions`)).json()
    expect(page.data.map((row) => row.uuid)).toEqual([record])
    const one = await get(`/api/v2/wallets/${fresh.uuid}/transactions/${record}`)
    expect(one.json()).toMatchObject({ uuid: record })
    expect(await misses()).toBe(before + 2)

    // Another person's wallet is still nobody's, on either database.
    const stranger = await signUp(app, { kyc: false })
    const refused = await app.inject({
      method: 'GET',
      url: `/api/v2/wallets/${fresh.uuid}/transactions`,
      headers: headers(bearer(stranger.access_token)),
    })
    expect(refused.statusCode).toBe(404)
  })

  it('the replica is measured: up, and no lag figure from a database that is not a standby', async () => {
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    expect(metrics).toMatch(/^db_replica_up\{node="reader"\} 1$/m)
    expect(metrics).toMatch(/^db_replica_lag_seconds\{node="reader"\} NaN$/im)
    expect(metrics).toMatch(/^db_replica_lag_bytes\{node="reader"\} NaN$/im)
  })
})
