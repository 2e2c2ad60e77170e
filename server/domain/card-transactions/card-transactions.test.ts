import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type {
  CardTransaction,
  CardTransactionList,
  Merchant,
} from '../../../contract/card-transactions.ts'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { cardCalls, ok, PREPAID, testCardKeys } from '../cards/card-test-support.ts'
import { balance, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { transfer } from '../ledger/rules.ts'
import { post, systemAccount } from '../ledger/service.ts'
import { CardProcessor } from './card-network.ts'
import { CardTransactionService } from './read-card-transactions.ts'

const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

describeServer('card transactions: the sandbox processor and /api/v1/issuing/transactions', () => {
  let app: FastifyInstance
  const keys = testCardKeys()

  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { call, fundedCard } = cardCalls(() => app)

  /** The token of each card's owner. */
  const owners = new Map<string, string>()
  const tokenOf = (cardId: string) => owners.get(cardId) ?? ''

  /** A new user with a stand-alone EUR card whose account holds `funds` (minor units). */
  async function cardholder(funds = 50_000n) {
    const held = await fundedCard(funds)
    owners.set(held.card.id, held.token)
    return held
  }

  async function holdOf(fiatAccountId: string) {
    const row = await app.db
      .selectFrom('fiat_accounts')
      .select('hold_ledger_account_id')
      .where('id', '=', fiatAccountId)
      .executeTakeFirstOrThrow()
    return row.hold_ledger_account_id ? balance(app.db, row.hold_ledger_account_id, EUR) : 0n
  }

  const network = (body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      headers: { 'content-type': 'application/json' },
      payload: body,
    })

  async function send(body: Record<string, unknown>) {
    return ok<CardTransaction>(await network({ currency: 'EUR', ...body }), 201)
  }

  const authorize = (cardId: string, amount: string, merchant: Merchant = SHOP) =>
    send({ card_id: cardId, type: 'AUTHORIZATION', amount, merchant })

  it('approves an authorisation within status, limits and balance, and holds its amount', async () => {
    const { card, spendable } = await cardholder(50_000n)
    const auth = await authorize(card.id, '120.50')
    expect(auth).toMatchObject({
      card_id: card.id,
      card_last4: card.last4,
      fiat_account_id: card.fiat_account.id,
      type: 'AUTHORIZATION',
      status: 'APPROVED',
      amount: '120.50',
      currency: 'EUR',
      merchant: SHOP,
      decline_reason: null,
      exceeded_limit: null,
      authorization_id: null,
    })
    expect(await balance(app.db, spendable, EUR)).toBe(50_000n - 12_050n)
    expect(await holdOf(card.fiat_account.id)).toBe(12_050n)
    const entry = await app.db
      .selectFrom('journal_entries')
      .select(['kind'])
      .where('idempotency_key', '=', `card_tx:${auth.id}:hold`)
      .executeTakeFirstOrThrow()
    expect(entry.kind).toBe('card_hold')
    await expectLedgerInvariants(app)
  })

  it('declines by card status, account balance and each limit, records the decline and moves no money', async () => {
    const { token, card, spendable } = await cardholder(50_000n)
    const decline = async (amount: string) => {
      const t = await authorize(card.id, amount)
      expect(t.status).toBe('DECLINED')
      return t
    }
    // Default limits: 1 000 per transaction, 2 500 daily, 10 000 monthly; balance 500.
    expect(await decline('1000.01')).toMatchObject({
      decline_reason: 'LIMIT_EXCEEDED',
      exceeded_limit: 'per_transaction',
    })
    expect(await decline('500.01')).toMatchObject({
      decline_reason: 'INSUFFICIENT_FUNDS',
      exceeded_limit: null,
    })
    ok(await call(token, 'PATCH', `/issuing/cards/${card.id}/freeze`))
    expect((await decline('1.00')).decline_reason).toBe('CARD_FROZEN')
    ok(await call(token, 'PATCH', `/issuing/cards/${card.id}/unfreeze`))
    expect((await authorize(card.id, '500.00')).status).toBe('APPROVED')
    expect((await decline('0.01')).decline_reason).toBe('INSUFFICIENT_FUNDS')

    expect(await balance(app.db, spendable, EUR)).toBe(0n)
    expect(await holdOf(card.fiat_account.id)).toBe(50_000n)
    const declines = await app.db
      .selectFrom('card_transactions')
      .select('decline_reason')
      .where('card_id', '=', card.id)
      .where('status', '=', 'DECLINED')
      .execute()
    expect(declines).toHaveLength(4)
    await expectLedgerInvariants(app)
  })

  it('declines on a closed card, and a closed card’s stand-alone account', async () => {
    const { token, card } = await cardholder(10_000n)
    ok(
      await app.inject({
        method: 'DELETE',
        url: `/api/v1/issuing/cards/${card.id}`,
        headers: headers({ authorization: token }),
      }),
    )
    const t = await authorize(card.id, '1.00')
    expect(t).toMatchObject({ status: 'DECLINED', decline_reason: 'CARD_CLOSED' })
  })

  it('sums approved authorisations per UTC day and month for the daily and monthly limits', async () => {
    const { token, card } = await cardholder(100_000n)
    ok(
      await call(token, 'PATCH', `/issuing/cards/${card.id}/limits`, {
        per_transaction: '100.00',
        daily: '150.00',
        monthly: '200.00',
      }),
    )
    const processor = new CardProcessor(app.db, keys.crypto)
    const at = (iso: string, amount: string) =>
      processor.process(
        { card_id: card.id, type: 'AUTHORIZATION', amount, currency: 'EUR', merchant: SHOP },
        new Date(iso),
      )
    expect((await at('2031-03-10T10:00:00Z', '100.00')).status).toBe('APPROVED')
    expect(await at('2031-03-10T23:59:59Z', '50.01')).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'LIMIT_EXCEEDED',
      exceeded_limit: 'daily',
    })
    // The limit may be reached exactly.
    expect((await at('2031-03-10T23:59:59Z', '50.00')).status).toBe('APPROVED')
    // Next UTC day: the daily sum starts again; the month has 150 of 200 spent.
    expect(await at('2031-03-11T00:00:00Z', '50.01')).toMatchObject({
      status: 'DECLINED',
      exceeded_limit: 'monthly',
    })
    const last = await at('2031-03-11T00:00:00Z', '50.00')
    expect(last.status).toBe('APPROVED')
    // A reversed authorisation no longer counts.
    await processor.process(
      {
        card_id: card.id,
        type: 'REVERSAL',
        amount: '50.00',
        currency: 'EUR',
        authorization_id: last.id,
      },
      new Date('2031-03-11T01:00:00Z'),
    )
    expect((await at('2031-03-12T00:00:00Z', '50.00')).status).toBe('APPROVED')
    expect((await at('2031-03-31T23:00:00Z', '0.01')).exceeded_limit).toBe('monthly')
    // A new month.
    expect((await at('2031-04-01T00:00:00Z', '100.00')).status).toBe('APPROVED')
    await expectLedgerInvariants(app)
  })

  it('clears part of a hold: the cleared amount leaves, the rest returns; a second end is 409', async () => {
    const { card, spendable } = await cardholder(50_000n)
    const external = await systemAccount(app.db, DEMO_TENANT_ID, 'external')
    const externalBefore = await balance(app.db, external, EUR)
    const auth = await authorize(card.id, '100.00')
    const clearing = await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '80.00',
      authorization_id: auth.id,
    })
    expect(clearing).toMatchObject({
      type: 'CLEARING',
      status: 'SETTLED',
      amount: '80.00',
      authorization_id: auth.id,
      merchant: SHOP,
    })
    expect(await balance(app.db, spendable, EUR)).toBe(50_000n - 8_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    expect(await balance(app.db, external, EUR)).toBe(externalBefore + 8_000n)

    const again = await network({
      card_id: card.id,
      type: 'CLEARING',
      amount: '10.00',
      currency: 'EUR',
      authorization_id: auth.id,
    })
    expect(expectProblem(again, 409, 'AUTHORIZATION_NOT_OPEN').detail).toMatch(/SETTLED/)
    expectProblem(
      await network({
        card_id: card.id,
        type: 'REVERSAL',
        amount: '100.00',
        currency: 'EUR',
        authorization_id: auth.id,
      }),
      409,
      'AUTHORIZATION_NOT_OPEN',
    )
    const list = ok<CardTransactionList>(
      await call(tokenOf(card.id), 'GET', `/issuing/transactions/?card_id=${card.id}`),
    )
    expect(list.data.find((t) => t.id === auth.id)?.status).toBe('SETTLED')
    await expectLedgerInvariants(app)
  })

  it('clears a whole hold, and refuses a clearing over the authorised amount', async () => {
    const { card, spendable } = await cardholder(50_000n)
    const auth = await authorize(card.id, '100.00')
    const over = await network({
      card_id: card.id,
      type: 'CLEARING',
      amount: '100.01',
      currency: 'EUR',
      authorization_id: auth.id,
    })
    expectProblem(over, 422, 'AMOUNT_EXCEEDS_AUTHORIZATION')
    await send({ card_id: card.id, type: 'CLEARING', amount: '100.00', authorization_id: auth.id })
    expect(await balance(app.db, spendable, EUR)).toBe(40_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    await expectLedgerInvariants(app)
  })

  it('reverses a hold back to the account, only for its whole amount', async () => {
    const { card, spendable } = await cardholder(50_000n)
    const auth = await authorize(card.id, '70.00')
    const partial = await network({
      card_id: card.id,
      type: 'REVERSAL',
      amount: '30.00',
      currency: 'EUR',
      authorization_id: auth.id,
    })
    expectProblem(partial, 422, 'AMOUNT_NOT_AUTHORIZED')
    const reversal = await send({
      card_id: card.id,
      type: 'REVERSAL',
      amount: '70.00',
      authorization_id: auth.id,
    })
    expect(reversal).toMatchObject({
      type: 'REVERSAL',
      status: 'SETTLED',
      authorization_id: auth.id,
    })
    expect(await balance(app.db, spendable, EUR)).toBe(50_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    const list = ok<CardTransactionList>(
      await call(tokenOf(card.id), 'GET', `/issuing/transactions/?card_id=${card.id}`),
    )
    expect(list.data.find((t) => t.id === auth.id)?.status).toBe('REVERSED')
    await expectLedgerInvariants(app)
  })

  it('refunds up to what was cleared, only after the clearing', async () => {
    const { card, spendable } = await cardholder(50_000n)
    const auth = await authorize(card.id, '100.00')
    const early = await network({
      card_id: card.id,
      type: 'REFUND',
      amount: '10.00',
      currency: 'EUR',
      authorization_id: auth.id,
    })
    expectProblem(early, 409, 'AUTHORIZATION_NOT_SETTLED')
    await send({ card_id: card.id, type: 'CLEARING', amount: '80.00', authorization_id: auth.id })
    const refund = await send({
      card_id: card.id,
      type: 'REFUND',
      amount: '30.00',
      authorization_id: auth.id,
    })
    expect(refund).toMatchObject({ type: 'REFUND', status: 'SETTLED', merchant: SHOP })
    expect(await balance(app.db, spendable, EUR)).toBe(50_000n - 8_000n + 3_000n)
    const over = await network({
      card_id: card.id,
      type: 'REFUND',
      amount: '50.01',
      currency: 'EUR',
      authorization_id: auth.id,
    })
    expect(expectProblem(over, 422, 'AMOUNT_EXCEEDS_REFUNDABLE').errors).toEqual([
      { field: '/body/amount', message: expect.stringContaining('50.00') },
    ])
    await send({ card_id: card.id, type: 'REFUND', amount: '50.00', authorization_id: auth.id })
    expect(await balance(app.db, spendable, EUR)).toBe(50_000n)
    await expectLedgerInvariants(app)
  })

  it('refuses malformed messages with 422 naming the field', async () => {
    const { card } = await cardholder(10_000n)
    const other = await cardholder(10_000n)
    const otherAuth = await authorize(other.card.id, '1.00')
    const cases: [Record<string, unknown>, string, string][] = [
      [
        {
          card_id: '018f0000-0000-7000-8000-000000000000',
          type: 'AUTHORIZATION',
          amount: '1',
          currency: 'EUR',
          merchant: SHOP,
        },
        'UNKNOWN_CARD',
        '/body/card_id',
      ],
      [
        { card_id: card.id, type: 'AUTHORIZATION', amount: '1', currency: 'USD', merchant: SHOP },
        'CURRENCY_MISMATCH',
        '/body/currency',
      ],
      [
        {
          card_id: card.id,
          type: 'AUTHORIZATION',
          amount: '1.001',
          currency: 'EUR',
          merchant: SHOP,
        },
        'INVALID_AMOUNT',
        '/body/amount',
      ],
      [
        { card_id: card.id, type: 'AUTHORIZATION', amount: '0', currency: 'EUR', merchant: SHOP },
        'INVALID_AMOUNT',
        '/body/amount',
      ],
      [
        { card_id: card.id, type: 'AUTHORIZATION', amount: '1', currency: 'EUR' },
        'MERCHANT_REQUIRED',
        '/body/merchant',
      ],
      [
        { card_id: card.id, type: 'CLEARING', amount: '1', currency: 'EUR' },
        'AUTHORIZATION_REQUIRED',
        '/body/authorization_id',
      ],
      // Another card's authorisation is not this card's.
      [
        {
          card_id: card.id,
          type: 'CLEARING',
          amount: '1',
          currency: 'EUR',
          authorization_id: otherAuth.id,
        },
        'AUTHORIZATION_NOT_FOUND',
        '/body/authorization_id',
      ],
    ]
    for (const [body, code, field] of cases) {
      const problem = expectProblem(await network(body), 422, code)
      expect(problem.errors?.[0]?.field, code).toBe(field)
    }
    expect(
      await app.db
        .selectFrom('card_transactions')
        .select('id')
        .where('card_id', '=', card.id)
        .execute(),
    ).toEqual([])
  })

  it('lists the owner’s card transactions newest first, by card, by account or all; others’ ids are 404', async () => {
    const { token, wallet, card } = await cardholder(50_000n)
    const second = ok<Card>(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    const a1 = await authorize(card.id, '10.00')
    const c1 = await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '10.00',
      authorization_id: a1.id,
    })
    const a2 = await authorize(card.id, '900.00') // declined: over the balance
    const b1 = await authorize(second.id, '1.00') // declined: nothing on that account

    const all = ok<CardTransactionList>(
      await call(token, 'GET', '/issuing/transactions/?new_scheme=true'),
    )
    expect(all.data.map((t) => t.id)).toEqual([b1.id, a2.id, c1.id, a1.id])
    expect(all).toMatchObject({ total: 4, limit: 10, offset: 0, is_last_page: true })

    const byCard = ok<CardTransactionList>(
      await call(token, 'GET', `/issuing/transactions?card_id=${card.id}&limit=2&offset=1`),
    )
    expect(byCard.data.map((t) => t.id)).toEqual([c1.id, a1.id])
    expect(byCard).toMatchObject({ total: 3, is_last_page: true })
    const firstOfThree = ok<CardTransactionList>(
      await call(token, 'GET', `/issuing/transactions?card_id=${card.id}&limit=2`),
    )
    expect(firstOfThree).toMatchObject({ is_last_page: false })
    expect(firstOfThree).not.toHaveProperty('total')
    expect(
      ok<CardTransactionList>(
        await call(
          token,
          'GET',
          `/issuing/transactions?card_id=${card.id}&limit=2&with_total=true`,
        ),
      ),
    ).toMatchObject({ total: 3, is_last_page: false })

    const byAccount = ok<CardTransactionList>(
      await call(token, 'GET', `/issuing/transactions/?fiat_account_id=${second.fiat_account.id}`),
    )
    expect(byAccount.data.map((t) => t.id)).toEqual([b1.id])

    const stranger = await cardholder(0n)
    const none = ok<CardTransactionList>(
      await call(stranger.token, 'GET', '/issuing/transactions/'),
    )
    expect(none.data).toEqual([])
    expectProblem(
      await call(stranger.token, 'GET', `/issuing/transactions/?card_id=${card.id}`),
      404,
      'CARD_NOT_FOUND',
    )
    expectProblem(
      await call(
        stranger.token,
        'GET',
        `/issuing/transactions/?fiat_account_id=${card.fiat_account.id}`,
      ),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    expectProblem(
      await call(stranger.token, 'GET', `/fiat_accounts/${card.fiat_account.id}/transactions`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )

    // The account's transactions on both bases: the same records.
    const v1 = ok<CardTransactionList>(
      await call(token, 'GET', `/fiat_accounts/${card.fiat_account.id}/transactions`),
    )
    const v2 = ok<CardTransactionList>(
      await app.inject({
        method: 'GET',
        url: `/api/v2/fiat-accounts/${wallet.uuid}/${card.fiat_account.id}/transactions`,
        headers: headers({ authorization: `Bearer ${token}` }),
      }),
    )
    expect(v1.data.map((t) => t.id)).toEqual([a2.id, c1.id, a1.id])
    expect(v2).toEqual(v1)
    const otherWallet = await createWallet(app, token)
    expectProblem(
      await app.inject({
        method: 'GET',
        url: `/api/v2/fiat-accounts/${otherWallet.uuid}/${card.fiat_account.id}/transactions`,
        headers: headers({ authorization: `Bearer ${token}` }),
      }),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
  })

  it('exports a card’s transactions as streamed CSV, newest first, formula-safe', async () => {
    const { token, card } = await cardholder(50_000n)
    const evil: Merchant = {
      name: '=HYPERLINK("http://x","pay")',
      mcc: '5999',
      city: '+Town, "Old"',
      country: 'GB',
    }
    const a1 = await authorize(card.id, '12.00', evil)
    const c1 = await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '11.50',
      authorization_id: a1.id,
    })
    const a2 = await authorize(card.id, '2000.00')

    const response = await call(token, 'GET', `/issuing/transactions/csv?card_id=${card.id}`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="card-transactions-${card.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`,
      ),
    )
    const lines = response.body.split('\r\n')
    expect(lines.pop()).toBe('')
    expect(lines[0]).toBe(
      'id,created_at,card_last4,type,status,amount,currency,merchant_name,merchant_mcc,' +
        'merchant_city,merchant_country,decline_reason,exceeded_limit,authorization_id',
    )
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([a2.id, c1.id, a1.id])
    expect(lines[1]).toContain(
      ',DECLINED,2000.00,EUR,Corner Shop,5411,Lisbon,PT,LIMIT_EXCEEDED,per_transaction,',
    )
    expect(lines[2]).toContain(
      `,CLEARING,SETTLED,11.50,EUR,"'=HYPERLINK(""http://x"",""pay"")",5999,"'+Town, ""Old""",GB,,,${a1.id}`,
    )

    // Keyset pages of any size give the same rows.
    const chunks: string[] = []
    const service = new CardTransactionService(app.db)
    for await (const chunk of await service.exportCsv(
      { tenantId: DEMO_TENANT_ID, userId: await ownerOf(card.id) },
      card.id,
      1,
    ))
      chunks.push(chunk)
    expect(chunks.join('')).toBe(response.body)
    expect(chunks).toHaveLength(4) // the header, then one chunk per row

    const stranger = await cardholder(0n)
    expectProblem(
      await call(stranger.token, 'GET', `/issuing/transactions/csv?card_id=${card.id}`),
      404,
      'CARD_NOT_FOUND',
    )
  })

  async function ownerOf(cardId: string) {
    const row = await app.db
      .selectFrom('cards')
      .select('user_id')
      .where('id', '=', cardId)
      .executeTakeFirstOrThrow()
    return row.user_id
  }

  it('serialises concurrent authorisations of one card: the limits and the balance hold', async () => {
    const { card, spendable } = await cardholder(30_000n)
    const results = await Promise.all(Array.from({ length: 8 }, () => authorize(card.id, '100.00')))
    expect(results.filter((t) => t.status === 'APPROVED')).toHaveLength(3)
    expect(results.filter((t) => t.decline_reason === 'INSUFFICIENT_FUNDS')).toHaveLength(5)
    expect(await balance(app.db, spendable, EUR)).toBe(0n)
    await expectLedgerInvariants(app)
  })

  it('after a stand-alone card is closed, its released holds and refunds reach the wallet, with a record', async () => {
    const { token, wallet, card, spendable } = await cardholder(50_000n)
    const cleared = await authorize(card.id, '100.00')
    const open = await authorize(card.id, '40.00')
    ok(
      await app.inject({
        method: 'DELETE',
        url: `/api/v1/issuing/cards/${card.id}`,
        headers: headers({ authorization: token }),
      }),
    )
    const accounts = await app.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .where('kind', '=', 'user_wallet')
      .executeTakeFirstOrThrow()
    // Closing returned the spendable 360.00; the holds stay with the network.
    expect(await balance(app.db, accounts.id, EUR)).toBe(36_000n)
    expect(await balance(app.db, spendable, EUR)).toBe(0n)

    await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '90.00',
      authorization_id: cleared.id,
    })
    await send({ card_id: card.id, type: 'REVERSAL', amount: '40.00', authorization_id: open.id })
    await send({ card_id: card.id, type: 'REFUND', amount: '5.00', authorization_id: cleared.id })
    expect(await balance(app.db, accounts.id, EUR)).toBe(36_000n + 1_000n + 4_000n + 500n)
    expect(await balance(app.db, spendable, EUR)).toBe(0n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    const records = await app.db
      .selectFrom('wallet_transactions')
      .select(['record_type', 'amount_minor'])
      .where('wallet_id', '=', wallet.uuid)
      .where('operation_id', '=', card.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    expect(records.map((r) => [r.record_type, r.amount_minor])).toEqual([
      ['CARD_PROVIDER_REFUND', '36000'],
      ['CARD_PROVIDER_REFUND', '1000'],
      ['CARD_PROVIDER_REFUND', '4000'],
      ['CARD_PROVIDER_REFUND', '500'],
    ])
    await expectLedgerInvariants(app)
  })
  it('replays a message under the same network_message_id: the stored record, 200, nothing moves twice', async () => {
    const { card, spendable } = await cardholder(10_000n)
    const message = {
      card_id: card.id,
      type: 'AUTHORIZATION',
      amount: '30.00',
      currency: 'EUR',
      merchant: SHOP,
      network_message_id: 'net-1',
    }
    const first = await network(message)
    const auth = ok<CardTransaction>(first, 201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    // The same message again, its amount written otherwise: the same record, 200.
    const again = await network({ ...message, amount: '30', currency: 'eur' })
    expect(ok<CardTransaction>(again, 200)).toEqual(auth)
    expect(again.headers['idempotent-replayed']).toBe('true')
    // A retry whose merchant object comes with its keys in another order is the same message.
    const reordered = Object.fromEntries(Object.entries(SHOP).reverse())
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(SHOP))
    const shuffled = await network({ ...message, merchant: reordered })
    expect(ok<CardTransaction>(shuffled, 200)).toEqual(auth)
    expect(shuffled.headers['idempotent-replayed']).toBe('true')
    expect(await balance(app.db, spendable, EUR)).toBe(7_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(3_000n)

    // Another message under that id: a conflict, nothing recorded.
    expectProblem(await network({ ...message, amount: '31.00' }), 409, 'IDEMPOTENCY_CONFLICT')
    expectProblem(
      await network({ ...message, merchant: { ...SHOP, name: 'Elsewhere' } }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    // The id is the card's: another card may use it.
    const other = await cardholder(10_000n)
    const theirs = ok<CardTransaction>(await network({ ...message, card_id: other.card.id }), 201)
    expect(theirs.id).not.toBe(auth.id)

    // A clearing retried: cleared once.
    const clearing = {
      card_id: card.id,
      type: 'CLEARING',
      amount: '30.00',
      currency: 'EUR',
      authorization_id: auth.id,
      network_message_id: 'net-2',
    }
    const cleared = ok<CardTransaction>(await network(clearing), 201)
    expect(ok<CardTransaction>(await network(clearing), 200)).toEqual(cleared)
    // A declined message is stored as well, and replayed as declined.
    const big = { ...message, amount: '5000.00', network_message_id: 'net-3' }
    const declined = ok<CardTransaction>(await network(big), 201)
    expect(declined.status).toBe('DECLINED')
    expect(ok<CardTransaction>(await network(big), 200)).toEqual(declined)

    const list = ok<CardTransactionList>(
      await call(tokenOf(card.id), 'GET', `/issuing/transactions/?card_id=${card.id}`),
    )
    expect(list.data.map((t) => `${t.type} ${t.status}`)).toEqual([
      'AUTHORIZATION DECLINED',
      'CLEARING SETTLED',
      'AUTHORIZATION SETTLED',
    ])
    expect(await balance(app.db, spendable, EUR)).toBe(7_000n)
    await expectLedgerInvariants(app)
  })

  if (onPostgres) {
    // Two connections are needed: PGlite has one, so this race exists only on PostgreSQL.
    it('an authorisation whose hold the ledger refuses (its balance spent meanwhile) is DECLINED, never a 500', async () => {
      const { card, spendable } = await cardholder(1_000n)
      const fees = await systemAccount(app.db, DEMO_TENANT_ID, 'fees')
      let answer: Promise<LightMyRequestResponse> | undefined
      await app.db.transaction().execute(async (trx) => {
        // A writer that skips the account's lock spends it all, not yet committed…
        await post(trx, {
          tenantId: DEMO_TENANT_ID,
          kind: 'card_fee',
          idempotencyKey: `test:${card.id}:spend`,
          postings: transfer(spendable, fees, EUR, 1_000n),
        })
        // …while the authorisation reads the committed 10.00 and waits on the balance row.
        answer = network({
          currency: 'EUR',
          card_id: card.id,
          type: 'AUTHORIZATION',
          amount: '10.00',
          merchant: SHOP,
        })
        await new Promise((resolve) => setTimeout(resolve, 1_500))
      })
      const declined = ok<CardTransaction>(await answer!, 201)
      expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'INSUFFICIENT_FUNDS' })
      expect(await holdOf(card.fiat_account.id)).toBe(0n)
      expect(await balance(app.db, spendable, EUR)).toBe(0n)
      const entries = await app.db
        .selectFrom('journal_entries')
        .select('id')
        .where('idempotency_key', '=', `card_tx:${declined.id}:hold`)
        .execute()
      expect(entries).toEqual([])
      await expectLedgerInvariants(app)
    })
  }

  it('a burst of one network message at once records it once', async () => {
    const { card, spendable } = await cardholder(10_000n)
    const message = {
      card_id: card.id,
      type: 'AUTHORIZATION',
      amount: '12.00',
      merchant: SHOP,
      network_message_id: 'burst-1',
    }
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => network({ currency: 'EUR', ...message })),
    )
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201])
    expect(new Set(answers.map((a) => a.json<CardTransaction>().id)).size).toBe(1)
    expect(await balance(app.db, spendable, EUR)).toBe(8_800n)
    await expectLedgerInvariants(app)
  })
})
