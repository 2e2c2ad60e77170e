import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { ChainId } from '../../../contract/catalog.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Wallet, WalletAddress, WalletTransaction } from '../../../contract/wallets.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { isTxHash } from './rules.ts'
import { DEPOSIT_JOB, DepositService } from './service.ts'

const BLOCK_MS = 1_000

describeServer('sandbox crypto deposits', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      SANDBOX_BLOCK_MS: String(BLOCK_MS),
      SANDBOX_MAX_CONFIRMATIONS: '3',
    })
  })
  afterAll(() => app?.close())

  const v2 = (pair: TokenPair, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(pair.access_token)),
      ...(payload && { payload }),
    })

  const deposit = (payload: object, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/deposits',
      headers: { 'content-type': 'application/json', ...extra },
      payload,
    })

  /** A new user with a personal wallet and an address on each of `chains`. */
  async function walletWith(...chains: ChainId[]) {
    const pair = await signUp(app)
    const wallet = (await v2(pair, 'POST', '/wallets', { type: 'personal' })).json<Wallet>()
    const addresses: Partial<Record<ChainId, string>> = {}
    for (const chain of chains) {
      const response = await v2(pair, 'POST', `/wallets/${wallet.uuid}/addresses/${chain}`, {})
      expect(response.statusCode, response.body).toBe(201)
      addresses[chain] = response.json<WalletAddress>().address
    }
    return { pair, wallet: wallet.uuid, addresses }
  }

  async function accepted(payload: object, extra: Record<string, string> = {}) {
    const response = await deposit(payload, extra)
    expect(response.statusCode, response.body).toBe(202)
    return response.json<WalletTransaction>()
  }

  const record = (id: string) =>
    app.db
      .selectFrom('wallet_transactions')
      .select(['status', 'confirmations'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  const balances = async (pair: TokenPair, wallet: string) =>
    (await v2(pair, 'GET', `/wallets/${wallet}`)).json<Wallet>().balances

  const entriesOf = async (id: string) =>
    (
      await app.db
        .selectFrom('journal_entries')
        .select('idempotency_key')
        .where('idempotency_key', 'like', `deposit:${id}:%`)
        .orderBy('idempotency_key')
        .execute()
    ).map((row) => row.idempotency_key)

  const at = (base: Date, blocks: number) => new Date(base.getTime() + blocks * BLOCK_MS)

  it('a deposit goes new → pending → complete, one confirmation per block, and the money follows', async () => {
    const { pair, wallet, addresses } = await walletWith('tron')
    const created = await accepted({
      wallet_uuid: wallet,
      chain: 'tron',
      currency: 'USDT',
      amount: '125.5',
    })
    expect(created).toMatchObject({
      wallet_uuid: wallet,
      type: 'deposit',
      method: 'crypto',
      record_type: 'DEPOSIT_CRYPTO_EXTERNAL',
      status: 'new',
      currency: 'USDT',
      chain: 'tron',
      amount: '125.500000',
      address: addresses.tron,
      confirmations: 0,
    })
    expect(created.tx_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(await balances(pair, wallet)).toEqual([])

    // Seen on chain: pending.
    const t0 = new Date()
    await app.jobs.runDue({ now: t0 })
    expect(await record(created.uuid)).toEqual({ status: 'pending', confirmations: 0 })
    expect(await balances(pair, wallet)).toMatchObject([
      { currency: 'USDT', chain: 'tron', available: '0.000000', pending: '125.500000' },
    ])
    expect(await entriesOf(created.uuid)).toEqual([`deposit:${created.uuid}:seen`])

    // No new block yet: nothing moves.
    await app.jobs.runDue({ now: at(t0, 0.5) })
    expect(await record(created.uuid)).toEqual({ status: 'pending', confirmations: 0 })

    await app.jobs.runDue({ now: at(t0, 1) })
    expect(await record(created.uuid)).toEqual({ status: 'pending', confirmations: 1 })
    await app.jobs.runDue({ now: at(t0, 2) })
    expect(await record(created.uuid)).toEqual({ status: 'pending', confirmations: 2 })
    await app.jobs.runDue({ now: at(t0, 3) })
    expect(await record(created.uuid)).toEqual({ status: 'complete', confirmations: 3 })
    expect(await balances(pair, wallet)).toMatchObject([
      { currency: 'USDT', available: '125.500000', pending: '0.000000' },
    ])
    expect(await entriesOf(created.uuid)).toEqual([
      `deposit:${created.uuid}:confirmed`,
      `deposit:${created.uuid}:seen`,
    ])
    const job = await app.db
      .selectFrom('jobs')
      .select(['done_at', 'kind'])
      .where(sql`payload->>'transaction_id'`, '=', created.uuid)
      .executeTakeFirstOrThrow()
    expect(job).toEqual({ done_at: expect.any(Date), kind: DEPOSIT_JOB })
    await expectLedgerInvariants(app)
  })

  it('each chain gets a plausible transaction hash, and the currency is named by code or uuid', async () => {
    const { wallet } = await walletWith('bitcoin', 'ethereum', 'polygon', 'tron', 'solana')
    const shapes: Record<ChainId, [string, RegExp]> = {
      bitcoin: ['BTC', /^[0-9a-f]{64}$/],
      ethereum: ['eth', /^0x[0-9a-f]{64}$/],
      polygon: ['USDC', /^0x[0-9a-f]{64}$/],
      tron: ['TRX', /^[0-9a-f]{64}$/],
      solana: ['f4ef2e7b-a437-4e61-9ba5-0ee46d0932cf', /^[1-9A-HJ-NP-Za-km-z]{86,88}$/],
    }
    for (const [chain, [currency, shape]] of Object.entries(shapes) as [
      ChainId,
      [string, RegExp],
    ][]) {
      const made = await accepted({ wallet_uuid: wallet, chain, currency, amount: '1' })
      expect(made.chain).toBe(chain)
      expect(made.tx_hash).toMatch(shape)
      expect(isTxHash(chain, made.tx_hash!)).toBe(true)
    }
  })

  it('what cannot be deposited answers 422 naming the field', async () => {
    const { wallet, addresses } = await walletWith('tron', 'ethereum')
    const other = await walletWith('tron')
    const base = { wallet_uuid: wallet, chain: 'tron', currency: 'USDT', amount: '10' }
    const cases: [object, string, string, Record<string, string>?][] = [
      [{ chain: 'dogecoin' }, 'VALIDATION_FAILED', '/body/chain'],
      [{ chain: 'solana', currency: 'SOL' }, 'NO_DEPOSIT_ADDRESS', '/body/chain'],
      [{ currency: 'USDC' }, 'CURRENCY_NOT_ON_CHAIN', '/body/currency'],
      [{ currency: 'EUR' }, 'CURRENCY_NOT_ON_CHAIN', '/body/currency'],
      [
        { currency: '442c4a1d-5c86-4c6c-bec6-7c8f3cfd7433' },
        'CURRENCY_NOT_ON_CHAIN',
        '/body/currency',
      ],
      [{ amount: '0' }, 'INVALID_AMOUNT', '/body/amount'],
      [{ amount: '1.0000001' }, 'INVALID_AMOUNT', '/body/amount'],
      [{ amount: '-5' }, 'VALIDATION_FAILED', '/body/amount'],
      [
        { wallet_uuid: '0190f5a4-0000-7000-8000-000000000000' },
        'WALLET_NOT_FOUND',
        '/body/wallet_uuid',
      ],
      [
        {},
        'WALLET_NOT_FOUND',
        '/body/wallet_uuid',
        { 'x-tenant-id': '0190f5a4-0000-7000-8000-000000000000' },
      ],
      [{ address: other.addresses.tron }, 'UNKNOWN_ADDRESS', '/body/address'],
      [{ address: addresses.ethereum }, 'UNKNOWN_ADDRESS', '/body/address'],
      [{ tx_hash: `0x${'ab'.repeat(32)}` }, 'INVALID_TX_HASH', '/body/tx_hash'],
    ]
    for (const [change, code, field, extra] of cases) {
      const problem = expectProblem(await deposit({ ...base, ...change }, extra), 422, code)
      expect(
        problem.errors?.map((e) => e.field),
        JSON.stringify(change),
      ).toContain(field)
    }
    expect(
      await app.db
        .selectFrom('wallet_transactions')
        .select('id')
        .where('wallet_id', '=', wallet)
        .execute(),
    ).toEqual([])
    // The wallet's own tenant in the header is fine, and so is a chosen address.
    const made = await accepted(
      { ...base, address: addresses.tron },
      { 'x-tenant-id': DEMO_TENANT_ID },
    )
    expect(made.address).toBe(addresses.tron)
  })

  it('the same key or hash replays the first deposit; with a different deposit, 409', async () => {
    const { wallet } = await walletWith('ethereum')
    const body = { wallet_uuid: wallet, chain: 'ethereum', currency: 'ETH', amount: '0.5' }
    const first = await accepted(body, { 'idempotency-key': 'abc-1' })
    const again = await accepted(body, { 'idempotency-key': 'abc-1' })
    expect(again.uuid).toBe(first.uuid)
    expect((await accepted({ ...body, request_id: 'abc-1' })).uuid).toBe(first.uuid)
    expectProblem(
      await deposit({ ...body, amount: '0.6' }, { 'idempotency-key': 'abc-1' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    const hash = `0x${'12'.repeat(32)}`
    const byHash = await accepted({ ...body, tx_hash: hash })
    expect(byHash.tx_hash).toBe(hash)
    expect((await accepted({ ...body, tx_hash: hash })).uuid).toBe(byHash.uuid)
    const parallel = await Promise.all(
      Array.from({ length: 8 }, () => deposit(body, { 'idempotency-key': 'abc-2' })),
    )
    expect(new Set(parallel.map((r) => r.json<WalletTransaction>().uuid)).size).toBe(1)
    const count = await app.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('wallet_id', '=', wallet)
      .execute()
    expect(count).toHaveLength(3)
    const jobs = await app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', DEPOSIT_JOB)
      .where(
        sql`payload->>'transaction_id'`,
        'in',
        count.map((row) => row.id),
      )
      .execute()
    expect(jobs).toHaveLength(3)
  })

  it('a crash between a step’s work and its job update repeats nothing: one ledger entry per key', async () => {
    const { pair, wallet } = await walletWith('bitcoin')
    const created = await accepted({
      wallet_uuid: wallet,
      chain: 'bitcoin',
      currency: 'BTC',
      amount: '0.25',
    })
    const jobRow = await app.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'tenant_id', 'payload'])
      .where(sql`payload->>'transaction_id'`, '=', created.uuid)
      .executeTakeFirstOrThrow()
    const job = {
      id: jobRow.id,
      kind: jobRow.kind,
      tenantId: jobRow.tenant_id,
      payload: jobRow.payload,
      attempt: 1,
    }
    const service = new DepositService(app.db, app.jobs, { blockMs: BLOCK_MS, maxConfirmations: 3 })
    const context = { db: app.db, log: app.log, now: new Date() }

    // The work of the first step commits; the runner "dies" before touching the job row.
    await service.step(job, context)
    expect(await record(created.uuid)).toEqual({ status: 'pending', confirmations: 0 })
    expect(
      (
        await app.db
          .selectFrom('jobs')
          .select('done_at')
          .where('id', '=', job.id)
          .executeTakeFirstOrThrow()
      ).done_at,
    ).toBeNull()

    // After the restart the job runs again: it moves on, it does not see the deposit twice.
    const t0 = new Date()
    for (let block = 0; block <= 4; block++) await app.jobs.runDue({ now: at(t0, block) })
    expect(await record(created.uuid)).toEqual({ status: 'complete', confirmations: 3 })

    // And a completed deposit's job, run once more (a crash before done_at), changes nothing.
    await service.step(job, context)
    await app.db
      .updateTable('jobs')
      .set({ done_at: null, run_at: t0 })
      .where('id', '=', job.id)
      .execute()
    await app.jobs.runDue({ now: at(t0, 10) })

    expect(await entriesOf(created.uuid)).toEqual([
      `deposit:${created.uuid}:confirmed`,
      `deposit:${created.uuid}:seen`,
    ])
    expect(await balances(pair, wallet)).toMatchObject([
      { currency: 'BTC', available: '0.25000000', pending: '0.00000000' },
    ])
    await expectLedgerInvariants(app)
  })

  it('the chain’s own confirmations count when below the sandbox cap', async () => {
    const quick = await createTestApp({ SANDBOX_BLOCK_MS: '0', SANDBOX_MAX_CONFIRMATIONS: '1000' })
    try {
      const pair = await signUp(quick)
      // The sign-up's own job first (a contact joined, newcomers.ts): the runs below are the deposit's.
      await quick.jobs.runDue()
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        quick.inject({
          method,
          url: `/api/v2${url}`,
          headers: headers(bearer(pair.access_token)),
          ...(payload && { payload }),
        })
      const wallet = (await call('POST', '/wallets', { type: 'personal' })).json<Wallet>()
      await call('POST', `/wallets/${wallet.uuid}/addresses/bitcoin`, {})
      const response = await quick.inject({
        method: 'POST',
        url: '/api/sandbox/deposits',
        payload: { wallet_uuid: wallet.uuid, chain: 'bitcoin', currency: 'BTC', amount: '1' },
      })
      const created = response.json<WalletTransaction>()
      let runs = 0
      while ((await quick.jobs.runDue()).done === 0) runs++
      // Bitcoin's 3 confirmations: seen, then 1, 2 and 3 (complete).
      expect(runs).toBe(3)
      const row = await quick.db
        .selectFrom('wallet_transactions')
        .select(['status', 'confirmations'])
        .where('id', '=', created.uuid)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ status: 'complete', confirmations: 3 })
    } finally {
      await quick.close()
    }
  })
})
