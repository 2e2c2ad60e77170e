import { sql } from 'kysely'
import { afterAll, expect, it } from 'vitest'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import type { Order, Quote } from '../../../contract/orders.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import { openDatabase } from '../../infra/db/database.ts'
import { describeServer } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { crashableServer, EXPECTED, openAccount, PLAN, quoteQuery } from './order-crash-fixtures.ts'

/**
 * The real server killed with SIGKILL while orders are being placed, and again while they are
 * being processed, restarted on the same database each time: every order ends exactly once (one
 * order per idempotency key, one hold and one settlement or release each, the balances what the
 * orders say). The bench, and why PGlite survives it, in order-crash-fixtures.ts.
 */
describeServer('orders survive a server killed with SIGKILL', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it('kill -9 while placing and while processing: every order ends exactly once', async () => {
    const server = await crashableServer(cleanups, {
      JOBS_LEASE_MS: '1000',
      SANDBOX_BANK_MS: '3000',
      SANDBOX_BLOCK_MS: '500',
      SANDBOX_MAX_CONFIRMATIONS: '3',
    })
    const { client, env, place } = server

    const { wallet, funding, bought, payee } = await openAccount(client)

    const quotes: Quote[] = []
    for (const kind of PLAN) {
      quotes.push(await client.quote(wallet, quoteQuery(kind, payee)))
    }

    // Crash 1: in the middle of a burst of placements, with the job runner at work.
    const burst = quotes.map((q, i) => client.place(q.order_type, q.quote_id, `crash-${i}`))
    const answered = Promise.allSettled(burst)
    await Promise.race([Promise.all(burst.slice(0, 8)), answered])
    await server.stop('SIGKILL')
    // Some were answered, the rest cut off mid-request: their outcome unknown to the client.
    const first = await answered

    // The client retries every request with its key: the first answer, or a first placing.
    await server.start()
    const placed: Order[] = []
    for (const [i, q] of quotes.entries()) {
      const response = await client.place(q.order_type, q.quote_id, `crash-${i}`)
      expect(response.status, JSON.stringify(response.body)).toBe(201)
      const earlier = first[i]!
      if (earlier.status === 'fulfilled' && earlier.value.status === 201) {
        expect(response.replayed).toBe(true)
        expect(response.body).toEqual(earlier.value.body)
      }
      placed.push(response.body)
    }
    expect(new Set(placed.map((order) => order.id)).size).toBe(PLAN.length)

    // Crash 2: while payouts wait for the bank and withdrawals for their blocks.
    await new Promise((resolve) => setTimeout(resolve, 100))
    await server.stop('SIGKILL')
    await server.start()
    for (const [i, order] of placed.entries()) {
      if (PLAN[i] === 'deposit') await client.bankTransfer(order)
    }

    const finals = await client.settled()
    // The funding deposit and exchange, and one order per key: nothing twice.
    expect(finals).toHaveLength(PLAN.length + 2)
    const byId = new Map(finals.map((order) => [order.id, order]))
    let eur = toMinor(funding.to.amount, 2) - toMinor(bought.total, 2)
    let usdt = toMinor(bought.to.amount, 6)
    for (const [i, kind] of PLAN.entries()) {
      const order = byId.get(placed[i]!.id)!
      expect(order.status, `${kind} ${order.id}`).toBe(EXPECTED[kind].status)
      const seen = order.timeline.map((event) => event.status)
      expect(new Set(seen).size, `timeline of ${order.id}: ${seen}`).toBe(seen.length)
      if (kind === 'sepa') eur -= toMinor(order.total, 2)
      if (kind === 'crypto') usdt -= toMinor(order.total, 6)
      if (kind === 'exchange') {
        usdt -= toMinor(order.total, 6)
        eur += toMinor(order.to.amount, 2)
      }
      if (kind === 'deposit') eur += toMinor(order.to.amount, 2)
    }
    const balances = (await client.ok<Wallet>('GET', `/api/v2/wallets/${wallet}`)).balances
    expect(balances.find((b) => b.currency === 'EUR')).toMatchObject({
      available: fromMinor(eur, 2),
      pending: '0.00',
    })
    expect(balances.find((b) => b.currency === 'USDT')).toMatchObject({
      available: fromMinor(usdt, 6),
      pending: '0.000000',
    })

    // The ledger, read with the server stopped (PGlite has one process at a time).
    await server.stop('SIGTERM')
    const database = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: place.dataDir,
    })
    try {
      for (const [i, kind] of PLAN.entries()) {
        const id = placed[i]!.id
        const entries = await sql<{ key: string }>`
          select idempotency_key as key from journal_entries
          where idempotency_key like ${`order:${id}:%`} order by 1`.execute(database.db)
        expect(
          entries.rows.map((row) => row.key.split(':')[2]),
          `${kind} ${id}`,
        ).toEqual(EXPECTED[kind].entries)
      }
      const held = await sql<{ balance_minor: string }>`
        select b.balance_minor from account_balances b
        join ledger_accounts a on a.id = b.account_id
        where a.wallet_id = ${wallet}::uuid and a.kind = 'held'`.execute(database.db)
      expect(held.rows.every((row) => row.balance_minor === '0')).toBe(true)
      await expectLedgerInvariants(database)
    } finally {
      await database.close()
    }
  }, 150_000)
})
