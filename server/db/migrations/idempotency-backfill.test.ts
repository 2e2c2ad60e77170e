import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { canonicalHash, runIdempotent } from '../../domain/idempotency.ts'
import type { Database } from '../../infra/db/database.ts'
import { migrate, readMigrations } from '../../infra/db/migrate.ts'
import { createTestDatabase } from '../../test-databases.ts'
import { describeServer } from '../../test-support.ts'

/** An order placed before migration 0016: its key and first answer on the order row. */
describeServer('migration 0016: idempotency keys carried over', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database?.close())

  it('an order placed before the migration still replays its first answer, and a reuse is refused', async () => {
    const all = await readMigrations()
    await migrate(
      database.db,
      all.filter((migration) => migration.version < 16),
    )
    const user = randomUUID()
    const wallet = randomUUID()
    const quote = randomUUID()
    const order = randomUUID()
    const answer = { id: order, status: 'NEW', note: 'placed before 0016' }
    const hash = canonicalHash({
      note: null,
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      quote_id: quote,
    })
    await sql`
      insert into tenants (id, name) values (${DEMO_TENANT_ID}::uuid, 'Demo') on conflict do nothing;
    `.execute(database.db)
    await sql`insert into users (id, tenant_id, email) values (${user}::uuid, ${DEMO_TENANT_ID}::uuid, ${`${user}@example.com`})`.execute(
      database.db,
    )
    await sql`insert into wallets (id, tenant_id, user_id, type) values (${wallet}::uuid, ${DEMO_TENANT_ID}::uuid, ${user}::uuid, 'exchange')`.execute(
      database.db,
    )
    const priced = sql`${'b3115d89-344b-4d51-abfa-76863eddec04'}::uuid, ${'68e31acb-683c-4237-a1d1-50edfa265bdf'}::uuid, 25000000, 25310, '0.0010124', '[]'::jsonb, 25025000, '{}'::jsonb`
    await sql`
      insert into order_quotes (id, tenant_id, user_id, wallet_id, order_type, from_currency_uuid,
        to_currency_uuid, amount_from_minor, amount_to_minor, rate, fees, total_minor, target, expires_at)
      values (${quote}::uuid, ${DEMO_TENANT_ID}::uuid, ${user}::uuid, ${wallet}::uuid,
        'EXCHANGE_CRYPTO_INTERNAL', ${priced}, now())`.execute(database.db)
    await sql`
      insert into orders (id, tenant_id, user_id, wallet_id, order_type, status, quote_id, request_id,
        request_hash, first_response, from_currency_uuid, to_currency_uuid, amount_from_minor,
        amount_to_minor, rate, fees, total_minor, target)
      values (${order}::uuid, ${DEMO_TENANT_ID}::uuid, ${user}::uuid, ${wallet}::uuid,
        'EXCHANGE_CRYPTO_INTERNAL', 'NEW', ${quote}::uuid, 'client-key-1', ${hash},
        ${JSON.stringify(answer)}::jsonb, ${priced})`.execute(database.db)

    expect(await migrate(database.db)).toEqual(
      all.filter((migration) => migration.version >= 16).map((migration) => migration.version),
    )
    const request = {
      scope: 'order' as const,
      tenantId: DEMO_TENANT_ID,
      ownerId: user,
      key: 'client-key-1',
      hash,
    }
    const never = async () => {
      throw new Error('a replay runs nothing')
    }
    expect(await runIdempotent(database.db, request, never)).toEqual({ answer, replayed: true })
    await expect(
      runIdempotent(database.db, { ...request, hash: canonicalHash({ other: true }) }, never),
    ).rejects.toThrow(/IDEMPOTENCY_CONFLICT/)
  })
})
