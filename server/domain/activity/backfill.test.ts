import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityDetail } from '../../../contract/activity.ts'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { SANCTIONED_ADDRESSES } from '../../providers/chain/sandbox-payouts.ts'
import {
  createFiatAccount,
  createTestApp,
  createWallet,
  describeServer,
} from '../../test-support.ts'
import {
  cardCalls,
  EUR_BALANCE,
  ledgerAccountOf,
  ok,
  testCardKeys,
} from '../cards/card-test-support.ts'
import { credit, EUR } from '../ledger/ledger-test-support.ts'
import {
  bankTransfer,
  CUR,
  fund,
  IBAN,
  insertDestination,
  type OrderUser,
  orderUser,
  placed,
  quote,
  walletAddress,
} from '../orders/order-fixtures.ts'
import { insertCardProgram } from '../orders/quote-test-support.ts'
import { insertTransactions } from '../transactions/transaction-fixtures.ts'
import { activityCalls } from './activity-test-support.ts'

const SHOP = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Migration 0015 writes the items of everything that happened before it
 * (activities_backfill). Here the live writers fill a database with every
 * kind of item; then the items are taken away and the backfill writes them
 * again: the feed must read the same.
 */
describeServer('the migration’s backfill of the activity feed', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp({
      ...keys.env,
      SANDBOX_BANK_MS: '1000',
      SANDBOX_BLOCK_MS: '1000',
      SANDBOX_MAX_CONFIRMATIONS: '3',
    })
  })
  afterAll(() => app?.close())

  const { call, onAccount } = cardCalls(() => app)
  const { everything, detail, network, deposit } = activityCalls(() => app)
  async function runJobs(now: Date, times = 6) {
    for (let n = 0; n < times; n++) await app.jobs.runDue({ now, limit: 100 })
  }

  /** Everything a person's feed says, keyed by what each item is made from (ids differ). */
  async function snapshot(token: string) {
    const items = await everything(token)
    const described: Record<string, unknown> = {}
    for (const item of items) {
      const shown: ActivityDetail = await detail(token, item.id)
      const { id: _id, updated_at: _updated, timeline, records, card_transactions, ...rest } = shown
      described[`${item.source.type}:${item.source.id}:${item.type}`] = {
        ...rest,
        // The backfill (0015) ran before card payments had channels (0034): none of its items has one.
        channel: null,
        timeline: timeline.map((event) => [event.status, event.code, event.amount?.amount ?? null]),
        records: records.map((record) => record.uuid).sort(),
        card_transactions: card_transactions.map((t) => t.id).sort(),
      }
    }
    return {
      order: items.map((item) => `${item.source.type}:${item.source.id}:${item.type}`),
      described,
    }
  }

  it('writes for every past order, deposit, card payment and fee what the live writers wrote', async () => {
    const a = await orderUser(app)
    const b = await orderUser(app)
    const aSecond = await createWallet(app, a.token, 'trading')
    await fund(app.db, a.walletId, CUR.USDT_TRON, '1000')
    await fund(app.db, a.walletId, CUR.EUR, '1000.00')
    const place = async (user: OrderUser, query: Record<string, string>) =>
      placed(app, user, await quote(app, user, query))

    // Orders of every rail, ending every way.
    await place(a, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.BTC,
      to_wallet_uuid: aSecond.uuid,
      amount_from: '100',
    })
    const sepa = await insertDestination(app.db, a.walletId, { type: 'SEPA', iban: IBAN.OK })
    await place(a, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: sepa,
      amount_from: '50.00',
    })
    await place(a, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: SANCTIONED_ADDRESSES.tron[0]!,
      amount_from: '20',
    })
    await place(a, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: await walletAddress(app, b, 'tron'),
      amount_from: '30',
    })
    await place(a, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address: await walletAddress(app, { ...a, walletId: aSecond.uuid }, 'tron'),
      amount_from: '10',
    })
    const swift = await place(a, {
      order_type: 'DEPOSIT_FIAT_SWIFT',
      from_uuid: CUR.EUR,
      amount_from: '200.00',
    })
    const arrived = await bankTransfer(app, {
      reference: swift.deposit_instructions!.reference,
      amount: swift.total,
      currency: 'EUR',
      sender_name: 'Max Mustermann',
    })
    expect(arrived.statusCode, arrived.body).toBe(201)
    await place(a, { order_type: 'DEPOSIT_FIAT_SEPA', from_uuid: CUR.EUR, amount_from: '75.00' })
    const account = await createFiatAccount(app, a.token, a.walletId)
    await place(a, {
      order_type: 'TRANSFER_CARD_PREPAID',
      from_uuid: CUR.EUR,
      fiat_account_id: account.id,
      amount_from: '40.00',
    })

    // A stand-alone card whose program charges an issue fee (paid from the wallet), paid
    // with, partly cleared and refunded, reversed, declined, then closed holding a payment
    // whose release comes back to the wallet.
    const program = await insertCardProgram(app.db, DEMO_TENANT_ID, { name: 'Fee prepaid' })
    await app.db
      .updateTable('card_programs')
      .set({ fee_issue_minor: '250' })
      .where('id', '=', program)
      .execute()
    const standAlone = ok<Card>(
      await call(a.token, 'POST', '/issuing/cards/create', {
        wallet_uuid: a.walletId,
        program_id: program,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    await credit(
      app.db,
      DEMO_TENANT_ID,
      await ledgerAccountOf(app, standAlone.fiat_account.id),
      EUR,
      30_000n,
    )
    const pay = (body: Record<string, unknown>) => network(standAlone.id, body)
    const first = await pay({ type: 'AUTHORIZATION', amount: '50.00', merchant: SHOP })
    await pay({ type: 'CLEARING', amount: '40.00', authorization_id: first.id })
    await pay({ type: 'REFUND', amount: '15.00', authorization_id: first.id })
    const second = await pay({ type: 'AUTHORIZATION', amount: '9.99', merchant: SHOP })
    await pay({ type: 'REVERSAL', amount: '9.99', authorization_id: second.id })
    const third = await pay({ type: 'AUTHORIZATION', amount: '10.00', merchant: SHOP })
    await pay({ type: 'CLEARING', amount: '10.00', authorization_id: third.id })
    await pay({ type: 'REFUND', amount: '10.00', authorization_id: third.id })
    await pay({ type: 'AUTHORIZATION', amount: '900.00', merchant: SHOP })
    const open = await pay({ type: 'AUTHORIZATION', amount: '5.00', merchant: SHOP })
    const closed = await call(a.token, 'DELETE', `/issuing/cards/${standAlone.id}`)
    expect(closed.statusCode, closed.body).toBe(200)
    await pay({ type: 'REVERSAL', amount: '5.00', authorization_id: open.id })

    // A card on a balance account: its issue fee and, a month on, its monthly fee.
    const balanceAccount = await createFiatAccount(app, a.token, a.walletId, EUR_BALANCE)
    await credit(
      app.db,
      DEMO_TENANT_ID,
      await ledgerAccountOf(app, balanceAccount.id),
      EUR,
      10_000n,
    )
    await onAccount(a.token, balanceAccount.id)

    // Every job: orders settle, payouts are paid, the monthly fee falls due.
    await runJobs(new Date())
    await runJobs(new Date(Date.now() + 40 * DAY_MS))

    // Deposits on chain: one confirmed, one still arriving.
    await walletAddress(app, a, 'tron')
    const confirmed = await deposit(a.walletId, '12.5')
    for (let block = 0; block <= 4; block++) {
      await app.jobs.runDue({ now: new Date(Date.now() + 41 * DAY_MS + block * 1000) })
    }
    await deposit(a.walletId, '3')

    // Records no item stands for yet (an older demo seed wrote its top-ups straight).
    const straight = '0190b0a4-0000-7000-8000-0000000000f1'
    await insertTransactions(app.db, { tenantId: DEMO_TENANT_ID, walletId: a.walletId }, [
      {
        type: 'withdrawal',
        method: 'p2p',
        record_type: 'CARD_PROVIDER_DEPOSIT',
        currency_uuid: CUR.EUR,
        amount_minor: '20000',
        operation_id: straight,
      },
      {
        type: 'withdrawal',
        method: 'p2p',
        record_type: 'FEE',
        currency_uuid: CUR.EUR,
        amount_minor: '200',
        operation_id: straight,
      },
    ])

    const live = { a: await snapshot(a.token), b: await snapshot(b.token) }
    const kinds = Object.values(live.a.described).map((item) => (item as { type: string }).type)
    for (const type of [
      'exchange',
      'send',
      'transfer',
      'deposit',
      'card_top_up',
      'card_purchase',
      'card_balance_return',
      'fee',
    ]) {
      expect(kinds, type).toContain(type)
    }
    expect(live.b.order).toHaveLength(1)
    expect(
      (live.a.described[`wallet_transaction:${confirmed.uuid}:deposit`] as { status: string })
        .status,
    ).toBe('complete')
    // The straight records have no item yet.
    const unclaimed = await app.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('activity_id', 'is', null)
      .execute()
    expect(unclaimed).toHaveLength(2)

    // As if the feed had never been written: the backfill writes it.
    await app.db.updateTable('wallet_transactions').set({ activity_id: null }).execute()
    await app.db.updateTable('card_transactions').set({ activity_id: null }).execute()
    await app.db.deleteFrom('activities').execute()
    await sql`select activities_backfill()`.execute(app.db)

    const again = { a: await snapshot(a.token), b: await snapshot(b.token) }
    expect(again.b).toEqual(live.b)
    // The straight records became one item of their own: a top-up with its fee.
    const extra = Object.entries(again.a.described).filter(([key]) => !(key in live.a.described))
    expect(extra).toHaveLength(1)
    expect(extra[0]![1]).toMatchObject({
      type: 'card_top_up',
      direction: 'own',
      amount: { amount: '200.00' },
      fee: { amount: '2.00' },
      total: { amount: '202.00' },
    })
    const { [extra[0]![0]]: _new, ...rest } = again.a.described
    for (const [key, item] of Object.entries(live.a.described)) {
      expect(rest[key], key).toEqual(item)
    }
    expect(again.a.order.filter((key) => key in live.a.described)).toEqual(live.a.order)

    // Every record now says what it belongs to, and running it again changes nothing.
    const orphans = await app.db
      .selectFrom('wallet_transactions')
      .select('id')
      .where('activity_id', 'is', null)
      .execute()
    expect(orphans).toEqual([])
    const count = async () =>
      (
        await app.db
          .selectFrom('activities')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
    const before = await count()
    await sql`select activities_backfill()`.execute(app.db)
    expect(await count()).toBe(before)
  })
})
