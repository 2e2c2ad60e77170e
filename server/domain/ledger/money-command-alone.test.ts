import type { FastifyInstance } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { createTestApp, describeServer } from '../../test-support.ts'
import { isLedgerFailure } from './errors.ts'
import { balance, EUR, expectLedgerInvariants } from './ledger-test-support.ts'
import { MoneyCommandError, type MoneyTransaction, runMoneyCommand } from './money-command.ts'
import {
  tellThenMove,
  told,
  traces,
  twoWallets as twoWalletsOf,
} from './money-command-test-support.ts'

const tenantId = DEMO_TENANT_ID
const isTransactionControl = (sql: string) => /^\s*(begin|commit|rollback)/i.test(sql)

/** Rule 5 of money-command.ts: a command that is only its entry's statement is sent alone. */
describeServer('a money command sent as one statement', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const twoWallets = () => twoWalletsOf(app.db, tenantId)

  it('its rows, events and entry are one statement, its own transaction: no BEGIN, no COMMIT', async () => {
    const wallets = await twoWallets()
    const key = `alone:${uuidv7()}`
    const { result, statements } = await statementsOf(() =>
      runMoneyCommand(app.db, {
        name: 'test.alone',
        tenantId,
        oneStatement: true,
        execute: tellThenMove(wallets, key, 2_500n),
      }),
    )
    expect(result.replayed).toBe(false)
    expect(statements, statements.join('\n')).toHaveLength(1)
    expect(statements[0]).toContain('insert into "events"')
    expect(statements[0]).toContain('insert into account_balances')
    expect(await traces(app.db, key, wallets.userId)).toEqual({
      entries: 1,
      events: ['security.password_changed'],
    })
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(2_500n)
    await expectLedgerInvariants(app)
  })

  it('an overdraft is refused by the statement itself: nothing is written, not even the key claimed with it', async () => {
    const wallets = await twoWallets()
    const clientKey = uuidv7()
    const key = `alone:${clientKey}`
    const run = (amount: bigint) =>
      runMoneyCommand(app.db, {
        name: 'test.alone-keyed',
        tenantId,
        claim: { scope: 'order', ownerId: wallets.userId, key: clientKey, hash: 'h' },
        prepare: async () => amount,
        answer: (planned) => ({ entry: `planned ${planned}` }),
        execute: (money, planned) => tellThenMove(wallets, key, planned)(money),
        oneStatement: true,
      })
    const refused = await run(10_001n).catch((error: unknown) => error)
    expect(isLedgerFailure(refused, 'INSUFFICIENT_FUNDS')).toBe(true)
    expect((refused as { failure: unknown }).failure).toEqual({
      kind: 'INSUFFICIENT_FUNDS',
      account: wallets.from.accounts.user_wallet,
      currency: EUR,
      balance: 10_000n,
      delta: -10_001n,
    })
    expect(await traces(app.db, key, wallets.userId)).toEqual({ entries: 0, events: [] })
    expect(await balance(app.db, wallets.from.accounts.user_wallet, EUR)).toBe(10_000n)
    // The key was not kept with the refused statement: the same key goes through now.
    expect(await run(4_000n)).toEqual({ answer: { entry: 'planned 4000' }, replayed: false })
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(4_000n)
    await expectLedgerInvariants(app)
  })

  it('a command that reads in its transaction is run in one: its first read sends BEGIN', async () => {
    const wallets = await twoWallets()
    const key = `alone:${uuidv7()}`
    let runs = 0
    const { result, statements } = await statementsOf(() =>
      runMoneyCommand(app.db, {
        name: 'test.reads',
        tenantId,
        oneStatement: true,
        execute: async (money: MoneyTransaction) => {
          runs += 1
          // Under its lock, as a use case reads what it is about to change.
          await money.trx
            .selectFrom('ledger_accounts')
            .select('id')
            .where('id', '=', wallets.from.accounts.user_wallet)
            .forUpdate()
            .execute()
          return tellThenMove(wallets, key, 1_000n)(money)
        },
      }),
    )
    // The first run stopped at the read, before anything was sent.
    expect(runs).toBe(2)
    expect(statements[0]).toMatch(/^begin/i)
    expect(statements.at(-1)).toMatch(/^commit/i)
    expect(result.answer.entry).toBeTruthy()
    expect(await traces(app.db, key, wallets.userId)).toEqual({
      entries: 1,
      events: ['security.password_changed'],
    })
  })

  it('an entry key posted before is refused alone, and replayed in a transaction', async () => {
    const wallets = await twoWallets()
    const key = `alone:${uuidv7()}`
    const run = () =>
      runMoneyCommand(app.db, {
        name: 'test.alone-again',
        tenantId,
        oneStatement: true,
        execute: tellThenMove(wallets, key, 700n),
      })
    const first = await run()
    const { result, statements } = await statementsOf(run)
    expect(result.answer.entry).toBe(first.answer.entry)
    // The statement alone (refused, nothing written), then BEGIN … COMMIT.
    expect(statements.filter(isTransactionControl).map((sql) => sql.trim().toLowerCase())).toEqual([
      'begin',
      'commit',
    ])
    expect(await balance(app.db, wallets.to.accounts.user_wallet, EUR)).toBe(700n)
    expect((await traces(app.db, key, wallets.userId)).entries).toBe(1)
    await expectLedgerInvariants(app)
  })

  it('a command that tells no event is refused before its statement is sent', async () => {
    const wallets = await twoWallets()
    const key = `alone:${uuidv7()}`
    const { result, statements } = await statementsOf(() =>
      runMoneyCommand(app.db, {
        name: 'test.alone-silent',
        tenantId,
        oneStatement: true,
        execute: async (money) => {
          await money.post({
            kind: 'transfer',
            idempotencyKey: key,
            postings: [
              { account: wallets.from.accounts.user_wallet, currency: EUR, amount: -100n },
              { account: wallets.to.accounts.user_wallet, currency: EUR, amount: 100n },
            ],
          })
          return undefined
        },
      }).catch((error: unknown) => error),
    )
    expect(result).toBeInstanceOf(MoneyCommandError)
    expect(statements).toEqual([])
    expect(await traces(app.db, key, wallets.userId)).toEqual({ entries: 0, events: [] })
  })

  it('writing after an entry sent alone is the command’s bug: MoneyCommandError (the entry stands)', async () => {
    const wallets = await twoWallets()
    const key = `alone:${uuidv7()}`
    await expect(
      runMoneyCommand(app.db, {
        name: 'test.alone-late',
        tenantId,
        oneStatement: true,
        execute: async (money) => {
          const answer = await tellThenMove(wallets, key, 300n)(money)
          await money.emit(told(wallets.userId))
          return answer
        },
      }),
    ).rejects.toThrow(/wrote after its entry/)
    // What `oneStatement` promises is what lets the entry commit as it is sent.
    expect(await traces(app.db, key, wallets.userId)).toEqual({
      entries: 1,
      events: ['security.password_changed'],
    })
    await expectLedgerInvariants(app)
  })
})
