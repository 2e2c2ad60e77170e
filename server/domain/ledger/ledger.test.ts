import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createTenant, createTestApp, describeServer } from '../../test-support.ts'
import { LedgerError, type LedgerFailure } from './errors.ts'
import {
  balance,
  credit,
  EUR,
  expectLedgerInvariants,
  newWallet,
  postAlone,
  USDT_TRON,
} from './ledger-test-support.ts'
import { transfer } from './rules.ts'
import { balanceOf, reverse, systemAccount } from './service.ts'

const tenantId = DEMO_TENANT_ID
const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

async function failureOf(work: Promise<unknown>): Promise<LedgerFailure> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(LedgerError)
  return (error as LedgerError).failure
}

describeServer('the ledger', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('a transfer moves money between wallets and keeps every invariant', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 10_000n)

    const entry = await postAlone(app.db, {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `t:${alice.wallet.uuid}`,
      postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 2_550n),
    })

    expect(entry).toMatchObject({ kind: 'transfer', replayed: false, reversesEntryId: null })
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(7_450n)
    expect(await balance(app.db, bob.accounts.user_wallet, EUR)).toBe(2_550n)
    await expectLedgerInvariants(app)
  })

  it('spending more than the balance is refused with INSUFFICIENT_FUNDS and leaves no trace', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 100n)
    const key = `overdraw:${alice.wallet.uuid}`

    const failure = await failureOf(
      postAlone(app.db, {
        tenantId,
        kind: 'transfer',
        idempotencyKey: key,
        postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 101n),
      }),
    )

    expect(failure).toEqual({
      kind: 'INSUFFICIENT_FUNDS',
      account: alice.accounts.user_wallet,
      currency: EUR,
      balance: 100n,
      delta: -101n,
    })
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(100n)
    expect(await balance(app.db, bob.accounts.user_wallet, EUR)).toBe(0n)
    const entries = await app.db
      .selectFrom('journal_entries')
      .select('id')
      .where('idempotency_key', '=', key)
      .execute()
    expect(entries).toEqual([])
  })

  it('ids written in capitals are the same accounts and currency: the spend is covered', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 100n)
    const upper = (id: string) => id.toUpperCase()
    await postAlone(app.db, {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `capitals:${alice.wallet.uuid}`,
      postings: transfer(
        upper(alice.accounts.user_wallet),
        bob.accounts.user_wallet,
        upper(EUR),
        40n,
      ),
    })
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(60n)
  })

  it('a wallet account with no balance row at all cannot be spent from', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    const failure = await failureOf(
      postAlone(app.db, {
        tenantId,
        kind: 'transfer',
        idempotencyKey: `empty:${alice.wallet.uuid}`,
        postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, USDT_TRON, 1n),
      }),
    )
    expect(failure).toMatchObject({ kind: 'INSUFFICIENT_FUNDS', balance: 0n })
  })

  it('the external account goes negative by exactly what came into the platform', async () => {
    const other = await createTenant(app)
    const wallet = await newWallet(app.db, other)
    await credit(app.db, other, wallet.accounts.user_wallet, EUR, 500n)
    await credit(app.db, other, wallet.accounts.pending, EUR, 70n)
    const external = await systemAccount(app.db, other, 'external')
    expect(await balance(app.db, external, EUR)).toBe(-570n)
    // Opened once per tenant and kind.
    expect(await systemAccount(app.db, other, 'external')).toBe(external)
  })

  it('the tenant’s own account spreads its balance over rows, a person’s keeps one', async () => {
    const other = await createTenant(app)
    const wallet = await newWallet(app.db, other)
    // Concurrent entries: each adds to one of the external account's rows at random.
    await Promise.all(
      Array.from({ length: 40 }, () => credit(app.db, other, wallet.accounts.user_wallet, EUR, 5n)),
    )
    const external = await systemAccount(app.db, other, 'external')
    const rows = await app.db
      .selectFrom('account_balances')
      .select(['account_id', 'shard'])
      .where('tenant_id', '=', other)
      .where('currency_uuid', '=', EUR)
      .execute()
    const shardsOf = (account: string) => rows.filter((row) => row.account_id === account).length
    expect(shardsOf(external)).toBeGreaterThan(1)
    expect(shardsOf(wallet.accounts.user_wallet)).toBe(1)
    expect(await balanceOf(app.db, external, EUR)).toBe(-200n)
    expect(await balanceOf(app.db, wallet.accounts.user_wallet, EUR)).toBe(200n)
    await expectLedgerInvariants(app)
    // A person's row is never spread: its guard needs the whole balance in one row.
    await expect(
      sql`update account_balances set shard = 3 where account_id = ${wallet.accounts.user_wallet}`.execute(
        app.db,
      ),
    ).rejects.toThrow(/account_balances_shard/)
  })

  it('the same key with the same postings replays the first entry and moves money once', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 1_000n)
    const entry = {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `replay:${alice.wallet.uuid}`,
      postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 300n),
    }

    const first = await postAlone(app.db, entry)
    const again = await postAlone(app.db, { ...entry, postings: [...entry.postings].reverse() })

    expect(again).toMatchObject({ id: first.id, replayed: true })
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(700n)
  })

  it('the same key with other postings is refused with IDEMPOTENCY_CONFLICT', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 1_000n)
    const key = `conflict:${alice.wallet.uuid}`
    const first = await postAlone(app.db, {
      tenantId,
      kind: 'transfer',
      idempotencyKey: key,
      postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 300n),
    })

    for (const changed of [
      {
        kind: 'transfer',
        postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 301n),
      },
      {
        kind: 'fee',
        postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 300n),
      },
    ]) {
      expect(
        await failureOf(postAlone(app.db, { tenantId, idempotencyKey: key, ...changed })),
      ).toEqual({ kind: 'IDEMPOTENCY_CONFLICT', entryId: first.id })
    }
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(700n)
  })

  it('one key posted by racing writers makes one entry', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 1_000n)
    const entry = {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `race:${alice.wallet.uuid}`,
      postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 100n),
    }

    const results = await Promise.all(Array.from({ length: 5 }, () => postAlone(app.db, entry)))

    expect(new Set(results.map((result) => result.id)).size).toBe(1)
    expect(results.filter((result) => !result.replayed)).toHaveLength(1)
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(900n)
  })

  it('entries that do not balance, or have a zero leg, are refused before anything is written', async () => {
    const alice = await newWallet(app.db, tenantId)
    const external = await systemAccount(app.db, tenantId, 'external')
    expect(
      await failureOf(
        postAlone(app.db, {
          tenantId,
          kind: 'bad',
          idempotencyKey: `unbalanced:${alice.wallet.uuid}`,
          postings: [
            { account: external, currency: EUR, amount: -5n },
            { account: alice.accounts.user_wallet, currency: EUR, amount: 6n },
          ],
        }),
      ),
    ).toMatchObject({ kind: 'UNBALANCED' })
    expect(
      await failureOf(
        postAlone(app.db, {
          tenantId,
          kind: 'bad',
          idempotencyKey: `zero:${alice.wallet.uuid}`,
          postings: transfer(external, alice.accounts.user_wallet, EUR, 0n),
        }),
      ),
    ).toMatchObject({ kind: 'ZERO_POSTING' })
  })

  it('an account of another tenant cannot be posted to', async () => {
    const other = await createTenant(app)
    const foreign = await newWallet(app.db, other)
    const external = await systemAccount(app.db, tenantId, 'external')
    expect(
      await failureOf(
        postAlone(app.db, {
          tenantId,
          kind: 'transfer',
          idempotencyKey: `foreign:${foreign.wallet.uuid}`,
          postings: transfer(external, foreign.accounts.user_wallet, EUR, 5n),
        }),
      ),
    ).toEqual({ kind: 'ACCOUNT_NOT_FOUND', account: foreign.accounts.user_wallet })
  })

  it('postings and entries cannot be changed or deleted, even by hand', async () => {
    const alice = await newWallet(app.db, tenantId)
    const entry = await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 10n)
    for (const statement of [
      sql`update postings set amount_minor = 1000 where entry_id = ${entry.id}`,
      sql`delete from postings where entry_id = ${entry.id}`,
      sql`update journal_entries set kind = 'other' where id = ${entry.id}`,
      sql`delete from journal_entries where id = ${entry.id}`,
      sql`truncate postings`,
    ]) {
      await expect(statement.execute(app.db)).rejects.toThrow(/append-only/)
    }
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(10n)
  })

  it('a wallet balance cannot be pushed below zero even around the service', async () => {
    const alice = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 10n)
    await expect(
      sql`update account_balances set balance_minor = -1 where account_id = ${alice.accounts.user_wallet}`.execute(
        app.db,
      ),
    ).rejects.toThrow(/account_balances_not_negative/)
  })

  it('a reversal restores the balances, and an entry is reversed only once', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 1_000n)
    const original = await postAlone(app.db, {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `to-reverse:${alice.wallet.uuid}`,
      postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 400n),
    })

    const undo = (idempotencyKey: string) =>
      app.db
        .transaction()
        .execute((trx) => reverse(trx, { tenantId, entryId: original.id, idempotencyKey }))
    const reversed = await undo(`reverse:${original.id}`)

    expect(reversed).toMatchObject({
      kind: 'reversal',
      reversesEntryId: original.id,
      replayed: false,
    })
    expect(await balance(app.db, alice.accounts.user_wallet, EUR)).toBe(1_000n)
    expect(await balance(app.db, bob.accounts.user_wallet, EUR)).toBe(0n)
    expect(await undo(`reverse:${original.id}`)).toMatchObject({ id: reversed.id, replayed: true })
    expect(await failureOf(undo(`again:${original.id}`))).toEqual({
      kind: 'ALREADY_REVERSED',
      entryId: original.id,
    })
    await expectLedgerInvariants(app)
  })

  it('a reversal of money already spent is refused with INSUFFICIENT_FUNDS', async () => {
    const alice = await newWallet(app.db, tenantId)
    const bob = await newWallet(app.db, tenantId)
    const carol = await newWallet(app.db, tenantId)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 100n)
    const original = await postAlone(app.db, {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `spent:${alice.wallet.uuid}`,
      postings: transfer(alice.accounts.user_wallet, bob.accounts.user_wallet, EUR, 100n),
    })
    await postAlone(app.db, {
      tenantId,
      kind: 'transfer',
      idempotencyKey: `onward:${bob.wallet.uuid}`,
      postings: transfer(bob.accounts.user_wallet, carol.accounts.user_wallet, EUR, 60n),
    })
    const failure = await failureOf(
      app.db
        .transaction()
        .execute((trx) =>
          reverse(trx, { tenantId, entryId: original.id, idempotencyKey: `undo:${original.id}` }),
        ),
    )
    expect(failure).toMatchObject({ kind: 'INSUFFICIENT_FUNDS', account: bob.accounts.user_wallet })
  })

  it('balanceOf reads one account in one currency, 0 before anything was posted to it', async () => {
    const alice = await newWallet(app.db, tenantId)
    expect(await balanceOf(app.db, alice.accounts.user_wallet, EUR)).toBe(0n)
    await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 1_234n)
    expect(await balanceOf(app.db, alice.accounts.user_wallet, EUR)).toBe(1_234n)
    expect(await balanceOf(app.db, alice.accounts.user_wallet, USDT_TRON)).toBe(0n)
    expect(await balanceOf(app.db, alice.accounts.held, EUR)).toBe(0n)
    await app.db.transaction().execute(async (trx) => {
      expect(await balanceOf(trx, alice.accounts.user_wallet, EUR, { lock: true })).toBe(1_234n)
    })
  })

  // PGlite is one connection: no second transaction can try the row while the
  // first holds it, so this case exists only on PostgreSQL.
  if (onPostgres) {
    it('balanceOf with lock holds the balance row until the transaction ends; without, it does not', async () => {
      const alice = await newWallet(app.db, tenantId)
      await credit(app.db, tenantId, alice.accounts.user_wallet, EUR, 500n)
      // Another connection, refused at once instead of waiting (NOWAIT): no timing involved.
      const tryLock = () =>
        app.db
          .selectFrom('account_balances')
          .select('balance_minor')
          .where('account_id', '=', alice.accounts.user_wallet)
          .where('currency_uuid', '=', EUR)
          .forUpdate()
          .noWait()
          .execute()
      await app.db.transaction().execute(async (trx) => {
        expect(await balanceOf(trx, alice.accounts.user_wallet, EUR)).toBe(500n)
        await expect(tryLock()).resolves.toHaveLength(1)
        expect(await balanceOf(trx, alice.accounts.user_wallet, EUR, { lock: true })).toBe(500n)
        await expect(tryLock()).rejects.toMatchObject({ code: '55P03' })
      })
      await expect(tryLock()).resolves.toHaveLength(1)
    })
  }
})
