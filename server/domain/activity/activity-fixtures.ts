/**
 * Activity items straight in the database, for the bench (and tests that need
 * a long feed): no vitest here, so the bench can import it.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { CURRENCY } from '../transactions/transaction-fixtures.ts'

/**
 * `count` items of one person in one INSERT … SELECT over generate_series:
 * deposits, sends and exchanges in turn, two per second counting back from
 * `newest` (ties on created_at cross page boundaries), every fifth in a
 * second wallet so a wallet's feed is not the person's. Amounts (0.001 to
 * 100.003 USDT) are scattered, not growing with age: real amounts do not
 * follow time, and a search by amount must not look faster or slower than
 * it is because they did.
 */
export async function insertGeneratedActivities(
  db: Kysely<DB>,
  owner: { tenantId: string; userId: string; walletId: string; otherWalletId: string },
  count: number,
  newest = new Date('2025-06-01T00:00:00Z'),
) {
  await sql`
    insert into activities (id, tenant_id, user_id, type, status, direction, source_type,
      source_id, wallet_id, currency_uuid, amount_minor, fee_minor, received_currency_uuid,
      received_minor, counterparty_name, created_at, updated_at)
    select gen_random_uuid(), ${owner.tenantId}::uuid, ${owner.userId}::uuid,
      (array['deposit', 'send', 'exchange'])[i % 3 + 1],
      case when i % 11 = 0 then 'pending' else 'complete' end,
      (array['in', 'out', 'own'])[i % 3 + 1],
      'wallet_transaction', gen_random_uuid(),
      case when i % 5 = 0 then ${owner.otherWalletId}::uuid else ${owner.walletId}::uuid end,
      ${CURRENCY.USDT_TRON}::uuid, ((i * 7919) % 100003 + 1) * 1000,
      case when i % 3 = 1 then 1000000 else 0 end,
      case when i % 3 = 2 then ${CURRENCY.BTC}::uuid end,
      case when i % 3 = 2 then i end,
      case when i % 3 = 1 then 'Payee ' || i end,
      ${newest.toISOString()}::timestamptz - (i / 2) * interval '1 second',
      ${newest.toISOString()}::timestamptz
    from generate_series(1, ${count}::int) as i`.execute(db)
  // What autovacuum would do after a bulk load (PGlite has none): without
  // statistics the planner may sort the whole feed instead of walking its index.
  await sql`analyze activities`.execute(db)
}
