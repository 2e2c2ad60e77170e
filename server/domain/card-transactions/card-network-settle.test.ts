import { expect, it } from 'vitest'
import type { CardTransactionList } from '../../../contract/card-transactions.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { describeServer, expectProblem, headers } from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'
import { balance, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { systemAccount } from '../ledger/service.ts'
import { cardNetworkApp, SHOP } from './card-network-fixtures.ts'

describeServer('card network: clearings, reversals and refunds', () => {
  const { app, call, tokenOf, cardholder, holdOf, network, send, authorize } = cardNetworkApp()

  it('clears part of a hold: the cleared amount leaves, the rest returns; a second end is 409', async () => {
    const { card, spendable } = await cardholder(50_000n)
    const external = await systemAccount(app().db, DEMO_TENANT_ID, 'external')
    const externalBefore = await balance(app().db, external, EUR)
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
    expect(await balance(app().db, spendable, EUR)).toBe(50_000n - 8_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    expect(await balance(app().db, external, EUR)).toBe(externalBefore + 8_000n)

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
    await expectLedgerInvariants(app())
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
    expect(await balance(app().db, spendable, EUR)).toBe(40_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    await expectLedgerInvariants(app())
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
    expect(await balance(app().db, spendable, EUR)).toBe(50_000n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    const list = ok<CardTransactionList>(
      await call(tokenOf(card.id), 'GET', `/issuing/transactions/?card_id=${card.id}`),
    )
    expect(list.data.find((t) => t.id === auth.id)?.status).toBe('REVERSED')
    await expectLedgerInvariants(app())
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
    expect(await balance(app().db, spendable, EUR)).toBe(50_000n - 8_000n + 3_000n)
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
    expect(await balance(app().db, spendable, EUR)).toBe(50_000n)
    await expectLedgerInvariants(app())
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
      await app()
        .db.selectFrom('card_transactions')
        .select('id')
        .where('card_id', '=', card.id)
        .execute(),
    ).toEqual([])
  })

  it('after a stand-alone card is closed, its released holds and refunds reach the wallet, with a record', async () => {
    const { token, wallet, card, spendable } = await cardholder(50_000n)
    const cleared = await authorize(card.id, '100.00')
    const open = await authorize(card.id, '40.00')
    ok(
      await app().inject({
        method: 'DELETE',
        url: `/api/v1/issuing/cards/${card.id}`,
        headers: headers({ authorization: token }),
      }),
    )
    const accounts = await app()
      .db.selectFrom('ledger_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .where('kind', '=', 'user_wallet')
      .executeTakeFirstOrThrow()
    // Closing returned the spendable 360.00; the holds stay with the network.
    expect(await balance(app().db, accounts.id, EUR)).toBe(36_000n)
    expect(await balance(app().db, spendable, EUR)).toBe(0n)

    await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '90.00',
      authorization_id: cleared.id,
    })
    await send({ card_id: card.id, type: 'REVERSAL', amount: '40.00', authorization_id: open.id })
    await send({ card_id: card.id, type: 'REFUND', amount: '5.00', authorization_id: cleared.id })
    expect(await balance(app().db, accounts.id, EUR)).toBe(36_000n + 1_000n + 4_000n + 500n)
    expect(await balance(app().db, spendable, EUR)).toBe(0n)
    expect(await holdOf(card.fiat_account.id)).toBe(0n)
    const records = await app()
      .db.selectFrom('wallet_transactions')
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
    await expectLedgerInvariants(app())
  })
})
