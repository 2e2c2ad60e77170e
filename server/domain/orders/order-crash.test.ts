import { sql } from 'kysely'
import { afterAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Destination } from '../../../contract/counterparties.ts'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import type {
  Order,
  OrderList,
  OrderStatus,
  OrderType,
  Quote,
  QuoteQuery,
} from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import { openDatabase } from '../../infra/db/database.ts'
import { serverEnv, startServer, stopServer as stop } from '../../process-test-support.ts'
import { describeServer, provision, uniqueEmail } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CUR, externalAddress, IBAN } from './order-fixtures.ts'

/**
 * The real server, as `npm start` runs it (built by scripts/build-server.mjs
 * and run by node; process-test-support.ts),
 * on a database that outlives it: file-based PGlite in DATA_DIR, or a
 * database of the run's PostgreSQL. It is killed with SIGKILL twice — while
 * orders are being placed, and while they are being processed — and
 * restarted on the same database each time. Every order must end exactly
 * once: one order per idempotency key, one hold and one settlement (or
 * release) each, the balances what the orders say.
 *
 * PGlite survives SIGKILL: its files are written through to the operating
 * system, and the next start recovers from the write-ahead log like any
 * PostgreSQL (docs/decisions.md).
 */
/** A client of the API that follows the server across restarts. */
class Client {
  url = ''
  token = ''

  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; body: T; replayed: boolean }> {
    const v2 = path.startsWith('/api/v2/')
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        'x-tenant-id': DEMO_TENANT_ID,
        'x-app-env': 'web',
        'content-type': 'application/json',
        ...(this.token && { authorization: v2 ? `Bearer ${this.token}` : this.token }),
        ...extra,
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as T,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    }
  }

  async ok<T>(method: string, path: string, body?: unknown, status = 200): Promise<T> {
    const response = await this.call<T>(method, path, body)
    if (response.status !== status) {
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    }
    return response.body
  }

  quote(walletId: string, query: Partial<Record<keyof QuoteQuery, string>>) {
    const search = new URLSearchParams({ wallet_uuid: walletId, ...query })
    return this.ok<Quote>('GET', `/api/v1/orders/calc?${search}`)
  }

  place(orderType: OrderType, quoteId: string, requestId: string) {
    return this.call<Order>('POST', `/api/v1/orders/${orderType}`, {
      quote_id: quoteId,
      request_id: requestId,
    })
  }

  async orders(): Promise<Order[]> {
    return (await this.ok<OrderList>('GET', '/api/v1/orders?limit=100')).data
  }

  bankTransfer(order: Order) {
    return this.ok(
      'POST',
      '/api/sandbox/bank-transfers',
      {
        reference: order.deposit_instructions!.reference,
        amount: order.total,
        currency: order.from.currency,
      },
      201,
    )
  }

  /**
   * Polls until every order (or those given) is in a final state. The cap only has to stop a
   * stuck order before the test's own timeout; a busy CI machine needs most of a minute.
   */
  async settled(ids?: string[], timeoutMs = 60_000): Promise<Order[]> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const orders = (await this.orders()).filter((order) => !ids || ids.includes(order.id))
      if (orders.every((order) => FINAL.includes(order.status))) return orders
      if (Date.now() > deadline) {
        throw new Error(
          `orders still open: ${orders
            .filter((order) => !FINAL.includes(order.status))
            .map((order) => `${order.order_type} ${order.status}`)
            .join(', ')}`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

const FINAL: OrderStatus[] = ['CANCELED', 'COMPLETE', 'ERROR', 'FAILED']

type Kind = 'sepa' | 'sepa-closed' | 'crypto' | 'exchange' | 'deposit'
const PLAN: Kind[] = [
  ...Array<Kind>(6).fill('sepa'),
  ...Array<Kind>(2).fill('sepa-closed'),
  ...Array<Kind>(6).fill('crypto'),
  ...Array<Kind>(6).fill('exchange'),
  ...Array<Kind>(4).fill('deposit'),
]
const EXPECTED: Record<Kind, { status: OrderStatus; entries: string[] }> = {
  sepa: { status: 'COMPLETE', entries: ['hold', 'settle'] },
  'sepa-closed': { status: 'FAILED', entries: ['hold', 'release'] },
  crypto: { status: 'COMPLETE', entries: ['hold', 'settle'] },
  // Settled as it is placed (issue 29): no hold first.
  exchange: { status: 'COMPLETE', entries: ['settle'] },
  deposit: { status: 'COMPLETE', entries: ['received'] },
}

/**
 * A person, a verified identity, a wallet, euros in by bank transfer and
 * tether bought with them, and two SEPA payees (one whose account is closed).
 */
async function openAccount(client: Client) {
  // A person, a wallet, euros in by bank transfer and tether bought with them.
  const email = uniqueEmail('crash')
  const pair = await client.ok<TokenPair>(
    'POST',
    '/api/v2/auth/sign-up/password/email',
    { email, password: 'correct horse battery staple' },
    201,
  )
  client.token = pair.access_token
  // Payees and payouts need the second look (issue 21): a one-time code from the sandbox outbox.
  await client.ok('POST', '/api/v2/user/step-up/otp/send')
  const sent = await client.ok<{ data: { code: string }[] }>(
    'GET',
    `/api/sandbox/outbox?to=${encodeURIComponent(email)}`,
  )
  await client.ok('POST', '/api/v2/user/step-up/otp', { token: sent.data[0]?.code })
  // Bank deposits need a verified identity: the sandbox reviewer approves it.
  await client.ok('POST', '/api/sandbox/kyc/decision', { status: 'APPROVED' }, 200)
  const wallet = (await client.ok<Wallet>('POST', '/api/v2/wallets', { type: 'personal' }, 201))
    .uuid
  const funding = await client.quote(wallet, {
    order_type: 'DEPOSIT_FIAT_SEPA',
    from_uuid: CUR.EUR,
    amount_from: '20000.00',
  })
  const deposit = (await client.place('DEPOSIT_FIAT_SEPA', funding.quote_id, 'fund')).body
  await client.bankTransfer(deposit)
  const buy = await client.quote(wallet, {
    order_type: 'EXCHANGE_CRYPTO_INTERNAL',
    from_uuid: CUR.EUR,
    to_uuid: CUR.USDT_TRON,
    amount_from: '5000.00',
  })
  const bought = (await client.place('EXCHANGE_CRYPTO_INTERNAL', buy.quote_id, 'buy')).body
  await client.settled([bought.id])

  const counterparty = await client.ok<{ counterparty_account_id: string }>(
    'POST',
    `/api/v2/counterparties/${wallet}`,
    { type: 'INDIVIDUAL', first_name: 'Anna', last_name: 'Schmidt', country: 'DE' },
    201,
  )
  const destination = async (iban: string) =>
    (
      await client.ok<Destination>(
        'POST',
        `/api/v2/counterparties/${wallet}/${counterparty.counterparty_account_id}/destinations`,
        { type: 'SEPA', iban },
        201,
      )
    ).counterparty_destination_id
  const payee = { ok: await destination(IBAN.OK), closed: await destination(IBAN.CLOSED) }

  return { wallet, funding, bought, payee }
}

/** The quote query of one kind of order in the plan (payouts go to `payee`). */
function quoteQuery(
  kind: Kind,
  payee: { ok: string; closed: string },
): Partial<Record<keyof QuoteQuery, string>> {
  if (kind === 'sepa' || kind === 'sepa-closed') {
    return {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: kind === 'sepa' ? payee.ok : payee.closed,
      amount_from: '100.00',
    }
  }
  if (kind === 'crypto') {
    return {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: externalAddress('tron'),
      amount_from: '50',
    }
  }
  if (kind === 'exchange') {
    return {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.EUR,
      amount_from: '30',
    }
  }
  return { order_type: 'DEPOSIT_FIAT_SEPA', from_uuid: CUR.EUR, amount_from: '200.00' }
}

/**
 * Jobs a runner had claimed and not finished when it died at `killedAt`:
 * counted, leased past the kill, no failure recorded. Read with the server
 * down (PGlite has one process at a time).
 */
async function heldJobs(env: Record<string, string>, dataDir: string, killedAt: Date) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir })
  try {
    const { rows } = await sql<{ held: number }>`
      select count(*)::int as held from jobs
      where done_at is null and last_error is null and attempts > 0 and run_at > ${killedAt}`.execute(
      database.db,
    )
    return rows[0]?.held ?? 0
  } finally {
    await database.close()
  }
}

/**
 * The real server on a database of its own (cleaned up with `cleanups`), the
 * sandbox's rails tuned by `extra`, and a client that follows it: kill() and
 * start() move both, and a restart finds the same database.
 */
async function crashableServer(
  cleanups: (() => Promise<unknown>)[],
  extra: Record<string, string>,
) {
  const place = await provision()
  cleanups.push(place.dispose)
  const env = serverEnv(place, {
    JOBS_POLL_MS: '20',
    QUOTE_TTL_SECONDS: '600',
    RATES_SANDBOX_LATENCY_MS: '0',
    ...extra,
  })
  const client = new Client()
  let server = await startServer(env)
  client.url = server.url
  cleanups.push(() => stop(server, 'SIGKILL'))
  return {
    place,
    env,
    client,
    stop: (signal: 'SIGKILL' | 'SIGTERM') => stop(server, signal),
    async start() {
      server = await startServer(env)
      client.url = server.url
    },
  }
}

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

  it('kill -9 while jobs are claimed, restart: every order is final within 20 s (the leases are short)', async () => {
    // JOBS_LEASE_MS is the default: how long a dead runner's jobs wait is what is tested.
    // The bank takes 1.5 s per call: a payout's job is in hand that long, so a kill finds one.
    const server = await crashableServer(cleanups, {
      SANDBOX_BANK_LATENCY_MS: '1500',
      SANDBOX_BANK_MS: '1000',
      SANDBOX_BLOCK_MS: '300',
      SANDBOX_MAX_CONFIRMATIONS: '2',
    })
    const { client, env, place } = server
    const { wallet, payee } = await openAccount(client)
    const kinds: Kind[] = [
      ...Array<Kind>(2).fill('sepa'),
      ...Array<Kind>(2).fill('crypto'),
      ...Array<Kind>(8).fill('exchange'),
    ]

    // The runner claims a batch and works through it, a payout's bank call
    // taking 1.5 s: kill it just after a burst of placements, again if it
    // happened to hold nothing then.
    const placed: string[] = []
    for (let round = 0; ; round++) {
      const quotes = []
      for (const kind of kinds) quotes.push(await client.quote(wallet, quoteQuery(kind, payee)))
      const answers = await Promise.all(
        quotes.map((q, i) => client.place(q.order_type, q.quote_id, `lease-${round}-${i}`)),
      )
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(201)
        placed.push(answer.body.id)
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
      await server.stop('SIGKILL')
      const killedAt = new Date()
      const held = await heldJobs(env, place.dataDir, killedAt)
      await server.start()
      if (held > 0) break
      expect(round, 'the runner never died holding a job').toBeLessThan(3)
      await client.settled(placed)
    }

    const restarted = Date.now()
    const finals = await client.settled(placed, 20_000)
    expect(Date.now() - restarted).toBeLessThan(20_000)
    expect(finals.map((order) => order.status)).toEqual(finals.map(() => 'COMPLETE'))
  }, 180_000)
})
