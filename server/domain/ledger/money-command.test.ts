import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import { canonicalHash, IdempotencyConflictError } from '../idempotency.ts'
import { balance, EUR, expectLedgerInvariants } from './ledger-test-support.ts'
import { MoneyCommandError, NothingToMove, runMoneyCommand } from './money-command.ts'
import {
  moveEuros,
  told,
  traces,
  twoWallets as twoWalletsOf,
} from './money-command-test-support.ts'

const tenantId = DEMO_TENANT_ID

describeServer('the money command', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const twoWallets = () => twoWalletsOf(app.db, tenantId)

  it('posts the entry and writes its event in one transaction', async () => {
    const wallets = await twoWallets()
    const key = `mc:${uuidv7()}`
    const { answer, replayed } = await runMoneyCommand(app.db, {
      name: 'test.move',
      tenantId,
      execute: moveEuros(wallets, key, 2_500n),
    })
    expect(replayed).toBe(false)
    expect(answer.entry).toBeTruthy()
    expect(await traces(app.db, key, wallets.userId)).toEqual({
      entries: 1,
      events: ['security.password_changed'],
    })
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(2_500n)
    await expectLedgerInvariants(app)
  })

  it('the events told before the entry are written by its statement, those after at the end: one dispatch job a group', async () => {
    const wallets = await twoWallets()
    const key = `mc:${uuidv7()}`
    const { statements } = await statementsOf(() =>
      runMoneyCommand(app.db, {
        name: 'test.move',
        tenantId,
        execute: async (money) => {
          await money.emit(told(wallets.userId, '2026-01-01T00:00:00.000Z'))
          await money.emit(told(wallets.userId, '2026-01-01T00:00:01.000Z'))
          await moveEuros(wallets, key, 100n, false)(money)
          await money.emit(told(wallets.userId, '2026-01-01T00:00:02.000Z'))
          return undefined
        },
      }),
    )
    const writes = statements
      .map((sql) => sql.toLowerCase())
      .filter((sql) => /insert into "events"|account_balances/.test(sql))
      .map((sql) => (/account_balances/.test(sql) ? 'entry' : 'events'))
    expect(writes).toEqual(['entry', 'events'])
    expect(statements.find((sql) => sql.includes('account_balances'))).toContain(
      'insert into "events"',
    )
    const events = await app.db
      .selectFrom('events')
      .select(['id', 'payload'])
      .where('user_id', '=', wallets.userId)
      .orderBy('id')
      .execute()
    expect(events).toHaveLength(3)
    const jobs = await app.db
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', 'events.dispatch')
      .where('payload', '@>', sql<never>`${JSON.stringify({ event_ids: [events[0]!.id] })}::jsonb`)
      .execute()
    expect(jobs.map((job) => job.payload)).toEqual([{ event_ids: [events[0]!.id, events[1]!.id] }])
  })

  it('refuses to commit money that moved without an event: nothing is left', async () => {
    const wallets = await twoWallets()
    const key = `mc:${uuidv7()}`
    await expect(
      runMoneyCommand(app.db, {
        name: 'test.silent',
        tenantId,
        execute: moveEuros(wallets, key, 2_500n, false),
      }),
    ).rejects.toThrow(MoneyCommandError)
    expect(await traces(app.db, key, wallets.userId)).toEqual({ entries: 0, events: [] })
    expect(await balance(app.db, wallets.from.accounts.user_wallet, EUR)).toBe(10_000n)
  })

  it('nothing to move under the locks: the answer given, nothing written, no event asked for', async () => {
    const wallets = await twoWallets()
    const key = `mc:${uuidv7()}`
    const { answer, replayed } = await runMoneyCommand(app.db, {
      name: 'test.nothing',
      tenantId,
      execute: async (money) => {
        await moveEuros(wallets, key, 2_500n, false)(money)
        throw new NothingToMove({ entry: 'the first one' })
      },
    })
    expect({ answer, replayed }).toEqual({ answer: { entry: 'the first one' }, replayed: true })
    expect(await traces(app.db, key, wallets.userId)).toEqual({ entries: 0, events: [] })
    expect(await balance(app.db, wallets.from.accounts.user_wallet, EUR)).toBe(10_000n)
  })

  it('refuses a second entry in one command: the first rolls back with it', async () => {
    const wallets = await twoWallets()
    const key = `mc:${uuidv7()}`
    await expect(
      runMoneyCommand(app.db, {
        name: 'test.twice',
        tenantId,
        execute: async (money) => {
          await moveEuros(wallets, key, 1_000n)(money)
          return moveEuros(wallets, `${key}:again`, 1_000n)(money)
        },
      }),
    ).rejects.toThrow(/second ledger entry/)
    expect(await traces(app.db, key, wallets.userId)).toEqual({ entries: 0, events: [] })
  })

  it('a use case that fails after posting rolls back the entry and its event', async () => {
    const wallets = await twoWallets()
    const key = `mc:${uuidv7()}`
    await expect(
      runMoneyCommand(app.db, {
        name: 'test.fails',
        tenantId,
        execute: async (money) => {
          await moveEuros(wallets, key, 1_000n)(money)
          throw new Error('the card network answered late')
        },
      }),
    ).rejects.toThrow('the card network answered late')
    expect(await traces(app.db, key, wallets.userId)).toEqual({ entries: 0, events: [] })
  })

  it('under a client key, the same request answers the first answer and moves nothing again; another body is refused', async () => {
    const wallets = await twoWallets()
    const clientKey = uuidv7()
    const run = (amount: bigint) =>
      runMoneyCommand(app.db, {
        name: 'test.keyed',
        tenantId,
        claim: {
          scope: 'order',
          ownerId: wallets.userId,
          key: clientKey,
          hash: canonicalHash({ amount: amount.toString() }),
        },
        execute: moveEuros(wallets, `mc:${clientKey}`, amount),
      })
    const first = await run(1_000n)
    const again = await run(1_000n)
    expect(again).toEqual({ answer: first.answer, replayed: true })
    await expect(run(2_000n)).rejects.toThrow(IdempotencyConflictError)
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(1_000n)
    expect((await traces(app.db, `mc:${clientKey}`, wallets.userId)).events).toHaveLength(1)
  })

  it('prepare runs before the transaction, and not at all for a replay', async () => {
    const wallets = await twoWallets()
    const clientKey = uuidv7()
    let prepared = 0
    const run = () =>
      runMoneyCommand(app.db, {
        name: 'test.prepared',
        tenantId,
        claim: { scope: 'order', ownerId: wallets.userId, key: clientKey, hash: 'h' },
        prepare: async () => {
          prepared += 1
          return 700n
        },
        execute: (money, amount) => moveEuros(wallets, `mc:${clientKey}`, amount)(money),
      })
    await run()
    await run()
    expect(prepared).toBe(1)
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(700n)
  })

  it('an answer known before the transaction is claimed with the first rows, and replayed whatever prepare says now', async () => {
    const wallets = await twoWallets()
    const clientKey = uuidv7()
    let expired = false
    const run = (hash = 'h') =>
      runMoneyCommand(app.db, {
        name: 'test.early',
        tenantId,
        claim: { scope: 'order', ownerId: wallets.userId, key: clientKey, hash },
        prepare: async () => {
          if (expired) throw new Error('the quote expired')
          return 300n
        },
        answer: (amount) => ({ entry: `planned ${amount}` }),
        execute: (money, amount) => moveEuros(wallets, `mc:${clientKey}`, amount)(money),
      })
    const { result, statements } = await statementsOf(() => run())
    expect(result).toEqual({ answer: { entry: 'planned 300' }, replayed: false })
    // No lookup first: the claim is written by the entry's statement.
    expect(statements[0]).toMatch(/^begin/i)
    const claim = statements.findIndex((sql) => sql.includes('insert into "idempotency_keys"'))
    expect(statements[claim]).toContain('insert into journal_entries')
    expect(await run()).toEqual({ answer: { entry: 'planned 300' }, replayed: true })
    // What the request was checked against has changed since: the first answer stands.
    expired = true
    expect(await run()).toEqual({ answer: { entry: 'planned 300' }, replayed: true })
    await expect(run('another body')).rejects.toThrow(IdempotencyConflictError)
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(300n)
  })

  it('an early answer whose command fails keeps no key: the next try runs', async () => {
    const wallets = await twoWallets()
    const clientKey = uuidv7()
    let fail = true
    const run = () =>
      runMoneyCommand(app.db, {
        name: 'test.early-failing',
        tenantId,
        claim: { scope: 'order', ownerId: wallets.userId, key: clientKey, hash: 'h' },
        prepare: async () => 400n,
        answer: (amount) => ({ entry: `planned ${amount}` }),
        execute: async (money, amount) => {
          const answer = await moveEuros(wallets, `mc:${clientKey}`, amount)(money)
          if (fail) throw new Error('the bank hung up')
          return answer
        },
      })
    await expect(run()).rejects.toThrow('the bank hung up')
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(0n)
    fail = false
    expect(await run()).toEqual({ answer: { entry: 'planned 400' }, replayed: false })
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(400n)
  })
})
