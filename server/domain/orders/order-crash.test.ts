import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
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
import { buildServer } from '../../../scripts/build-server.mjs'
import { openDatabase } from '../../infra/db/database.ts'
import { describeServer, provision, uniqueEmail } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CUR, externalAddress, IBAN } from './order-fixtures.ts'

/**
 * The real server, as `npm start` runs it (built by scripts/build-server.mjs,
 * here into a directory of this test's own, and run by node),
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
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

interface Server {
  url: string
  child: ChildProcess
  output: string[]
}

/**
 * The server as `npm start` builds it, once per file, into a directory of the
 * file's own inside the checkout (its packages resolve from node_modules there).
 */
let bundle: Promise<string> | undefined
let bundleDir: string | undefined
afterAll(() => {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true })
})
function builtServer(): Promise<string> {
  bundle ??= (async () => {
    mkdirSync(join(ROOT, 'build'), { recursive: true })
    bundleDir = mkdtempSync(join(ROOT, 'build', 'test-server-'))
    await buildServer(ROOT, join(bundleDir, 'main.mjs'))
    return join(bundleDir, 'main.mjs')
  })()
  return bundle
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [await builtServer()], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start in 30 s:\n${output.join('')}`)),
      30_000,
    )
    const onData = (chunk: Buffer) => {
      const text = chunk.toString()
      output.push(text)
      const ready = /"msg":"ready on http:\/\/localhost:(\d+)"/.exec(text)
      if (ready) {
        clearTimeout(timer)
        resolve(`http://127.0.0.1:${ready[1]}`)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(
        new Error(`the server exited (${code ?? signal}) before it was ready:\n${output.join('')}`),
      )
    })
  })
  // Keep draining its logs, or a full pipe would stall it.
  child.stdout!.removeAllListeners('data')
  child.stdout!.on('data', () => {})
  return { url, child, output }
}

function stop(server: Server, signal: 'SIGKILL' | 'SIGTERM') {
  return new Promise<void>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve()
    server.child.once('exit', () => resolve())
    server.child.kill(signal)
  })
}

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
  exchange: { status: 'COMPLETE', entries: ['hold', 'settle'] },
  deposit: { status: 'COMPLETE', entries: ['received'] },
}

describeServer('orders survive a server killed with SIGKILL', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it('kill -9 while placing and while processing: every order ends exactly once', async () => {
    const place = await provision()
    cleanups.push(place.dispose)
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: place.dataDir,
      DIST_DIR: join(place.dataDir, 'no-dist'),
      // PGlite: in DATA_DIR, on disk; PostgreSQL: a database of the run's server.
      ...(place.databaseUrl !== 'memory://' && { DATABASE_URL: place.databaseUrl }),
      SANDBOX: 'true',
      DEMO_SEED: 'false',
      LOG_LEVEL: 'info',
      JOBS_POLL_MS: '20',
      JOBS_LEASE_MS: '1000',
      SANDBOX_BANK_MS: '3000',
      SANDBOX_BLOCK_MS: '500',
      SANDBOX_MAX_CONFIRMATIONS: '3',
      QUOTE_TTL_SECONDS: '600',
      RATES_SANDBOX_LATENCY_MS: '0',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    }
    let server = await startServer(env)
    cleanups.push(() => stop(server, 'SIGKILL'))
    const client = new Client()
    client.url = server.url

    // A person, a wallet, euros in by bank transfer and tether bought with them.
    const pair = await client.ok<TokenPair>(
      'POST',
      '/api/v2/auth/sign-up/password/email',
      { email: uniqueEmail('crash'), password: 'correct horse battery staple' },
      201,
    )
    client.token = pair.access_token
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

    const quotes: Quote[] = []
    for (const kind of PLAN) {
      const query: Partial<Record<keyof QuoteQuery, string>> =
        kind === 'sepa' || kind === 'sepa-closed'
          ? {
              order_type: 'WITHDRAWAL_FIAT_SEPA',
              from_uuid: CUR.EUR,
              destination_id: kind === 'sepa' ? payee.ok : payee.closed,
              amount_from: '100.00',
            }
          : kind === 'crypto'
            ? {
                order_type: 'WITHDRAWAL_CRYPTO',
                from_uuid: CUR.USDT_TRON,
                address: externalAddress('tron'),
                amount_from: '50',
              }
            : kind === 'exchange'
              ? {
                  order_type: 'EXCHANGE_CRYPTO_INTERNAL',
                  from_uuid: CUR.USDT_TRON,
                  to_uuid: CUR.EUR,
                  amount_from: '30',
                }
              : { order_type: 'DEPOSIT_FIAT_SEPA', from_uuid: CUR.EUR, amount_from: '200.00' }
      quotes.push(await client.quote(wallet, query))
    }

    // Crash 1: in the middle of a burst of placements, with the job runner at work.
    const burst = quotes.map((q, i) => client.place(q.order_type, q.quote_id, `crash-${i}`))
    const answered = Promise.allSettled(burst)
    await Promise.race([Promise.all(burst.slice(0, 8)), answered])
    await stop(server, 'SIGKILL')
    // Some were answered, the rest cut off mid-request: their outcome unknown to the client.
    const first = await answered

    // The client retries every request with its key: the first answer, or a first placing.
    server = await startServer(env)
    client.url = server.url
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
    await stop(server, 'SIGKILL')
    server = await startServer(env)
    client.url = server.url
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
    await stop(server, 'SIGTERM')
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
