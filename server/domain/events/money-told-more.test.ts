import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CardDispute } from '../../../contract/card-disputes.ts'
import type { Merchant } from '../../../contract/card-transactions.ts'
import type { SandboxSepaCredit } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import {
  createFiatAccount,
  createTestApp,
  describeServer,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { cardCalls, EUR_BALANCE, ledgerAccountOf, ok } from '../cards/card-test-support.ts'
import { anniversary, feePeriod } from '../cards/rules.ts'
import { credit, EUR } from '../ledger/ledger-test-support.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { as, euros, type Person, person } from '../transfers/transfer-test-support.ts'
import { drain } from './events-test-support.ts'
import {
  eventCount,
  eventsOf,
  networkMessage,
  postedTx,
  recordTx,
} from './money-told-test-support.ts'

const DAY = 24 * 60 * 60 * 1000

/*
 * Issue 28, the money movements money-told.test.ts leaves out: bank credits,
 * card fees and closes, payments between people, disputes and auto top-ups.
 * Each one's ledger entry and its event(s) commit in ONE transaction (the
 * same xmin on both rows), or neither does.
 */
describeServer('events: the other money movements tell in the transaction that moves them', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())

  const cards = cardCalls(() => app)
  const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }
  const network = (body: Record<string, unknown>) => networkMessage(app, body)

  /** A card payment of `amount` authorised and cleared in full; answers the authorisation. */
  async function paid(cardId: string, amount: string) {
    const auth = await network({ card_id: cardId, type: 'AUTHORIZATION', amount, merchant: SHOP })
    expect(auth.status).toBe('APPROVED')
    await network({ card_id: cardId, type: 'CLEARING', amount, authorization_id: auth.id })
    return auth
  }

  /** A person's balance account holding `minor` (besides the issue fee) and a card on it. */
  async function cardOnAccount(minor: bigint) {
    const { token, wallet } = await cards.person()
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    const ledger = await ledgerAccountOf(app, account.id)
    await credit(app.db, DEMO_TENANT_ID, ledger, EUR, 500n + minor)
    const card = await cards.onAccount(token, account.id)
    return { token, wallet, account, card }
  }

  const sendTransfer = (from: Person, to: Record<string, string>, amount: string) =>
    as(app, from, 'POST', '/transfers', {
      to,
      wallet_uuid: from.walletId,
      currency_uuid: CUR.EUR,
      amount,
      request_id: crypto.randomUUID(),
    })

  /** A sender (second look given) with `funds` euros in their wallet. */
  async function sender(funds: string) {
    const who = await person(app, 'Mia', 'Sender', { stepUp: true })
    await fund(app.db, who.walletId, CUR.EUR, funds)
    return who
  }

  it('a SEPA credit to an account’s IBAN: fiat.credit.received with its entry', async () => {
    const { token, wallet } = await cards.person()
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    const credited = ok<SandboxSepaCredit>(
      await app.inject({
        method: 'POST',
        url: '/api/sandbox/sepa-credits',
        payload: {
          iban: account.bank_details!.iban,
          amount: '80.00',
          currency: 'EUR',
          sender_name: 'Maria Keller',
        },
      }),
      201,
    )
    expect(await eventsOf(app, 'credit_id', credited.id)).toEqual([
      { kind: 'fiat.credit.received', tx: await postedTx(app, `bank-credit:${credited.id}`) },
    ])
  })

  it('a card’s monthly fee: card.fee.charged with its entry, and the one it cannot pay with its record', async () => {
    // One monthly fee (1.00) on the account, not two.
    const { card } = await cardOnAccount(100n)
    const issued = new Date(card.created_at)
    await drain(app, new Date(anniversary(issued, 2).getTime() + 1_000))
    const unpaid = await app.db
      .selectFrom('card_transactions')
      .select('id')
      .where('card_id', '=', card.id)
      .where('fee_kind', '=', 'MONTHLY')
      .where('status', '=', 'DECLINED')
      .executeTakeFirstOrThrow()
    const fees = (await eventsOf(app, 'card_id', card.id)).filter(
      (event) => event.kind === 'card.fee.charged',
    )
    expect(fees.slice(1)).toEqual([
      {
        kind: 'card.fee.charged',
        tx: await postedTx(app, `card:${card.id}:fee:${feePeriod(anniversary(issued, 1))}`),
      },
      // Nothing taken, no entry: told with the DECLINED record it wrote.
      { kind: 'card.fee.charged', tx: await recordTx(app, unpaid.id) },
    ])
  })

  it('a stand-alone card closed with money on it: card.closed with the balance returned', async () => {
    const { token, card } = await cards.fundedCard(5_000n)
    ok(await cards.call(token, 'DELETE', `/issuing/cards/${card.id}`))
    const closed = (await eventsOf(app, 'card_id', card.id)).filter(
      (event) => event.kind === 'card.closed',
    )
    expect(closed).toEqual([
      { kind: 'card.closed', tx: await postedTx(app, `card:${card.id}:closed`) },
    ])
  })

  it('a transfer to a customer: transfer.sent and transfer.received with its entry', async () => {
    const mia = await sender('50')
    const anna = await person(app, 'Anna', 'Payee')
    const response = await sendTransfer(mia, { email: anna.email }, '20')
    const transfer = ok<Transfer>(response, 201)
    expect(transfer.status).toBe('COMPLETE')
    const tx = await postedTx(app, `transfer:${transfer.id}:direct`)
    expect(await eventsOf(app, 'transfer_id', transfer.id)).toEqual([
      { kind: 'transfer.sent', tx },
      { kind: 'transfer.received', tx },
    ])
  })

  it('a transfer to a newcomer: sent with its hold, claimed and received with the claim', async () => {
    const mia = await sender('50')
    const newcomer = uniqueEmail('newcomer')
    const transfer = ok<Transfer>(await sendTransfer(mia, { email: newcomer }, '20'), 201)
    expect(transfer.status).toBe('AWAITING_CLAIM')
    await drain(app)
    // Signing up with that e-mail claims it: the job the sign-up starts pays them.
    await signUp(app, { email: newcomer })
    await drain(app)
    const claimed = await postedTx(app, `transfer:${transfer.id}:claim`)
    expect(await eventsOf(app, 'transfer_id', transfer.id)).toEqual([
      { kind: 'transfer.sent', tx: await postedTx(app, `transfer:${transfer.id}:hold`) },
      { kind: 'transfer.claimed', tx: claimed },
      { kind: 'transfer.received', tx: claimed },
    ])
  })

  it('a transfer nobody claims: transfer.returned with the hold given back', async () => {
    const mia = await sender('50')
    const transfer = ok<Transfer>(
      await sendTransfer(mia, { email: uniqueEmail('nobody') }, '15'),
      201,
    )
    await drain(app, new Date(Date.now() + 8 * DAY))
    expect((await eventsOf(app, 'transfer_id', transfer.id)).slice(1)).toEqual([
      { kind: 'transfer.returned', tx: await postedTx(app, `transfer:${transfer.id}:return`) },
    ])
  })

  it('card disputes: a fraud claim credited at once and taken back when lost, another credited when won', async () => {
    const { token, card } = await cards.fundedCard(50_000n)
    const dispute = async (paymentId: string, reason: string) =>
      ok<CardDispute>(
        await cards.call(token, 'POST', `/issuing/transactions/${paymentId}/dispute`, {
          reason,
          details: 'Not what I paid for.',
        }),
        201,
      )
    const decide = async (id: string, outcome: string) =>
      ok<CardDispute>(
        await app.inject({
          method: 'POST',
          url: `/api/sandbox/card-disputes/${id}/decision`,
          payload: { outcome },
        }),
      )
    const fraud = await dispute((await paid(card.id, '40.00')).id, 'fraud')
    expect(fraud.credit).toMatchObject({ amount: '40.00', provisional: true })
    await decide(fraud.id, 'lost')
    expect(await eventsOf(app, 'dispute_id', fraud.id)).toEqual([
      { kind: 'card.dispute.updated', tx: await postedTx(app, `card_dispute:${fraud.id}:credit`) },
      {
        kind: 'card.dispute.updated',
        tx: await postedTx(app, `card_dispute:${fraud.id}:reverse`),
      },
    ])
    const duplicate = await dispute((await paid(card.id, '12.00')).id, 'duplicate')
    expect(duplicate.credit).toBeNull()
    await decide(duplicate.id, 'won')
    const [submitted, ...decided] = await eventsOf(app, 'dispute_id', duplicate.id)
    expect(submitted?.kind).toBe('card.dispute.updated')
    expect(decided).toEqual([
      {
        kind: 'card.dispute.updated',
        tx: await postedTx(app, `card_dispute:${duplicate.id}:credit`),
      },
    ])
  })

  it('an auto top-up: its order tells as every order does, order.created with its hold, order.completed with its settlement', async () => {
    const { token, wallet, account, card } = await cardOnAccount(10_000n)
    await fund(app.db, wallet.uuid, CUR.EUR, '1000')
    ok(
      await cards.call(token, 'PUT', `/fiat_accounts/${account.id}/auto-top-up`, {
        enabled: true,
        below: '50.00',
        top_up_to: '200.00',
        from_wallet_uuid: wallet.uuid,
        from_currency: CUR.EUR,
        daily_cap: '500.00',
      }),
    )
    // 100 − 60 = 40: below 50, the clearing's top-up places an order for 160.
    await paid(card.id, '60.00')
    await drain(app)
    // The order's job is due from the placing, after the moment the first run looked at.
    await drain(app)
    const order = await app.db
      .selectFrom('orders')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .executeTakeFirstOrThrow()
    expect(await eventsOf(app, 'order_id', order.id)).toEqual([
      { kind: 'order.created', tx: await postedTx(app, `order:${order.id}:hold`) },
      // The run's own word, once the order is placed: no money of its own moves there.
      { kind: 'card.auto_top_up.placed', tx: expect.any(String) },
      { kind: 'order.completed', tx: await postedTx(app, `order:${order.id}:settle`) },
    ])
  })

  it('a transfer that fails after telling its sender rolls that event back with it', async () => {
    const mia = await sender('50')
    const anna = await person(app, 'Anna', 'Payee')
    // A fault between the command's two events: the database refuses the payee's.
    await sql`
      create function refuse_payees_event() returns trigger language plpgsql as $$
      begin raise exception 'the payee''s event is refused'; end $$`.execute(app.db)
    await sql`
      create trigger refuse_payees_event before insert on events for each row
      when (new.user_id = ${sql.lit(anna.userId)} and new.kind = 'transfer.received')
      execute function refuse_payees_event()`.execute(app.db)
    const sent = await eventCount(app, 'transfer.sent')
    const body = {
      to: { email: anna.email },
      wallet_uuid: mia.walletId,
      currency_uuid: CUR.EUR,
      amount: '20',
      request_id: crypto.randomUUID(),
    }
    try {
      const failed = await as(app, mia, 'POST', '/transfers', body)
      expect(failed.statusCode, failed.body).toBe(500)
    } finally {
      await sql`drop trigger refuse_payees_event on events`.execute(app.db)
      await sql`drop function refuse_payees_event()`.execute(app.db)
    }
    expect(await eventCount(app, 'transfer.sent')).toBe(sent)
    expect(
      await app.db
        .selectFrom('transfers')
        .select('id')
        .where('sender_id', '=', mia.userId)
        .execute(),
    ).toEqual([])
    expect(await euros(app, mia)).toBe('50.00')
    // Nothing of it stayed, the client's key neither: the same request now goes through.
    expect(ok<Transfer>(await as(app, mia, 'POST', '/transfers', body), 201).status).toBe(
      'COMPLETE',
    )
  })
})
