import { expect, it } from 'vitest'
import { describeServer, headers } from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'
import { balance, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CardProcessor } from './card-network.ts'
import { cardNetworkApp, SHOP } from './card-network-fixtures.ts'

describeServer('card network: authorisations, declines and limits', () => {
  const { app, keys, call, cardholder, holdOf, authorize } = cardNetworkApp()

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
    expect(await balance(app().db, spendable, EUR)).toBe(50_000n - 12_050n)
    expect(await holdOf(card.fiat_account.id)).toBe(12_050n)
    const entry = await app()
      .db.selectFrom('journal_entries')
      .select(['kind'])
      .where('idempotency_key', '=', `card_tx:${auth.id}:hold`)
      .executeTakeFirstOrThrow()
    expect(entry.kind).toBe('card_hold')
    await expectLedgerInvariants(app())
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

    expect(await balance(app().db, spendable, EUR)).toBe(0n)
    expect(await holdOf(card.fiat_account.id)).toBe(50_000n)
    const declines = await app()
      .db.selectFrom('card_transactions')
      .select('decline_reason')
      .where('card_id', '=', card.id)
      .where('status', '=', 'DECLINED')
      .execute()
    expect(declines).toHaveLength(4)
    await expectLedgerInvariants(app())
  })

  it('declines on a closed card, and a closed card’s stand-alone account', async () => {
    const { token, card } = await cardholder(10_000n)
    ok(
      await app().inject({
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
    const processor = new CardProcessor(app().db, keys.crypto)
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
    await expectLedgerInvariants(app())
  })
})
