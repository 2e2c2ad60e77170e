import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityDetail } from '../../../contract/activity.ts'
import type { CardDispute, CardDisputeList } from '../../../contract/card-disputes.ts'
import type { CardTransaction, Merchant } from '../../../contract/card-transactions.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { cardCalls, ok, testCardKeys } from '../cards/card-test-support.ts'
import { balance, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'

const SHOP: Merchant = { name: 'Streaming Plus', mcc: '4899', city: 'Dublin', country: 'IE' }

describeServer(
  'card disputes: /api/v1/issuing/…/dispute(s) and the sandbox network’s decision',
  () => {
    let app: FastifyInstance
    const keys = testCardKeys()

    beforeAll(async () => {
      app = await createTestApp(keys.env)
    })
    afterAll(() => app?.close())

    const { call, fundedCard } = cardCalls(() => app)

    const network = async (body: Record<string, unknown>) =>
      ok<CardTransaction>(
        await app.inject({
          method: 'POST',
          url: '/api/sandbox/card-transactions',
          headers: { 'content-type': 'application/json' },
          payload: { currency: 'EUR', ...body },
        }),
        201,
      )

    /** A person's card payment of `amount`, cleared (settled) unless `clear` is false. */
    async function payment(amount = '40.00', clear = true) {
      const held = await fundedCard(50_000n)
      const auth = await network({
        card_id: held.card.id,
        type: 'AUTHORIZATION',
        amount,
        merchant: SHOP,
      })
      const clearing = clear
        ? await network({
            card_id: held.card.id,
            type: 'CLEARING',
            amount,
            authorization_id: auth.id,
          })
        : undefined
      return { ...held, auth, clearing }
    }

    const dispute = (token: string, id: string, body: Record<string, unknown>) =>
      call(token, 'POST', `/issuing/transactions/${id}/dispute`, body)

    const decision = (id: string, outcome: string) =>
      app.inject({
        method: 'POST',
        url: `/api/sandbox/card-disputes/${id}/decision`,
        headers: { 'content-type': 'application/json' },
        payload: { outcome },
      })

    const itemOf = async (token: string, activityId: string | null) =>
      ok<ActivityDetail>(
        await app.inject({
          method: 'GET',
          url: `/api/v2/activity/${activityId}`,
          headers: headers(bearer(token)),
        }),
      )

    const eventsOf = async (disputeId: string) =>
      (
        await app.db
          .selectFrom('events')
          .select(['payload'])
          .where('kind', '=', 'card.dispute.updated')
          .orderBy('created_at')
          .execute()
      )
        .map((event) => event.payload)
        .filter((payload) => payload.dispute_id === disputeId)

    it('a fraud claim is credited at once, provisionally, and taken back when lost', async () => {
      const { token, card, spendable, auth } = await payment('40.00')
      expect(await balance(app.db, spendable, EUR)).toBe(46_000n)
      const opened = ok<CardDispute>(
        await dispute(token, auth.id, { reason: 'fraud', details: 'I never bought this.' }),
        201,
      )
      expect(opened).toMatchObject({
        card_id: card.id,
        card_last4: card.last4,
        transaction_id: auth.id,
        activity_id: auth.activity_id,
        reason: 'fraud',
        status: 'SUBMITTED',
        amount: '40.00',
        currency: 'EUR',
        merchant: SHOP,
        credit: { amount: '40.00', provisional: true },
      })
      expect(await balance(app.db, spendable, EUR)).toBe(50_000n)
      expect(await itemOf(token, auth.activity_id)).toMatchObject({
        dispute: { id: opened.id, status: 'SUBMITTED' },
      })
      await expectLedgerInvariants(app)

      expect(ok<CardDispute>(await decision(opened.id, 'under_review'))).toMatchObject({
        status: 'UNDER_REVIEW',
        credit: { provisional: true },
      })
      const lost = ok<CardDispute>(await decision(opened.id, 'lost'))
      expect(lost).toMatchObject({ status: 'LOST', credit: null })
      expect(await balance(app.db, spendable, EUR)).toBe(46_000n)
      expect(await itemOf(token, auth.activity_id)).toMatchObject({
        dispute: { id: opened.id, status: 'LOST' },
      })
      expect(await eventsOf(opened.id)).toEqual([
        expect.objectContaining({ status: 'SUBMITTED', credited: '40.00', provisional: true }),
        expect.objectContaining({ status: 'UNDER_REVIEW', credited: '40.00', provisional: true }),
        expect.objectContaining({ status: 'LOST', credited: null, provisional: false }),
      ])
      // Decided: nothing follows.
      expectProblem(await decision(opened.id, 'won'), 409, 'DISPUTE_DECIDED')
      await expectLedgerInvariants(app)
    })

    it('a dispute with the merchant is credited only when won, for good', async () => {
      const { token, spendable, auth, clearing } = await payment('25.00')
      // The clearing's id names the same payment.
      const opened = ok<CardDispute>(
        await dispute(token, clearing!.id, {
          reason: 'not_received',
          details: 'Never delivered.',
          amount: '10.00',
        }),
        201,
      )
      expect(opened).toMatchObject({ transaction_id: auth.id, amount: '10.00', credit: null })
      expect(await balance(app.db, spendable, EUR)).toBe(47_500n)
      const won = ok<CardDispute>(await decision(opened.id, 'won'))
      expect(won).toMatchObject({ status: 'WON', credit: { amount: '10.00', provisional: false } })
      expect(await balance(app.db, spendable, EUR)).toBe(48_500n)
      expect(await eventsOf(opened.id)).toEqual([
        expect.objectContaining({ status: 'SUBMITTED', credited: null }),
        expect.objectContaining({ status: 'WON', credited: '10.00', provisional: false }),
      ])
      await expectLedgerInvariants(app)
    })

    it('a fraud claim won keeps its credit, made final, and moves nothing more', async () => {
      const { token, spendable, auth } = await payment('30.00')
      const opened = ok<CardDispute>(
        await dispute(token, auth.id, { reason: 'fraud', details: 'Card copied.' }),
        201,
      )
      const won = ok<CardDispute>(await decision(opened.id, 'won'))
      expect(won).toMatchObject({ status: 'WON', credit: { amount: '30.00', provisional: false } })
      expect(await balance(app.db, spendable, EUR)).toBe(50_000n)
      await expectLedgerInvariants(app)
    })

    it('one dispute per payment, never more than it charged less what came back, only settled', async () => {
      const { token, card, auth } = await payment('20.00')
      await network({
        card_id: card.id,
        type: 'REFUND',
        amount: '5.00',
        authorization_id: auth.id,
      })
      const tooMuch = await dispute(token, auth.id, {
        reason: 'wrong_amount',
        details: 'Charged twice the price.',
        amount: '15.01',
      })
      expectProblem(tooMuch, 422, 'AMOUNT_EXCEEDS_DISPUTABLE')
      const body = { reason: 'wrong_amount', details: 'Charged twice the price.' }
      const opened = ok<CardDispute>(await dispute(token, auth.id, body), 201)
      expect(opened.amount).toBe('15.00')
      // The same claim again answers it; another claim is refused.
      const again = await dispute(token, auth.id, body)
      expect(ok<CardDispute>(again).id).toBe(opened.id)
      expect(again.headers['idempotent-replayed']).toBe('true')
      expectProblem(
        await dispute(token, auth.id, { reason: 'fraud', details: 'Not me.' }),
        409,
        'DISPUTE_EXISTS',
      )
      expect(await eventsOf(opened.id)).toHaveLength(1)

      const open = await payment('10.00', false)
      expectProblem(
        await dispute(open.token, open.auth.id, { reason: 'fraud', details: 'Not me.' }),
        409,
        'AUTHORIZATION_NOT_SETTLED',
      )
      // Another person's payment is no one's to dispute.
      expectProblem(
        await dispute(open.token, auth.id, { reason: 'fraud', details: 'Not me.' }),
        404,
        'TRANSACTION_NOT_FOUND',
      )
      await expectLedgerInvariants(app)
    })

    it('lists the person’s disputes and reads one; another person’s is 404', async () => {
      const { token, auth } = await payment('12.00')
      const opened = ok<CardDispute>(
        await dispute(token, auth.id, { reason: 'duplicate', details: 'Charged twice.' }),
        201,
      )
      const list = ok<CardDisputeList>(await call(token, 'GET', '/issuing/disputes'))
      expect(list).toMatchObject({ total: 1, is_last_page: true, data: [{ id: opened.id }] })
      expect(ok<CardDispute>(await call(token, 'GET', `/issuing/disputes/${opened.id}`)).id).toBe(
        opened.id,
      )
      const other = await fundedCard(0n)
      expectProblem(
        await call(other.token, 'GET', `/issuing/disputes/${opened.id}`),
        404,
        'DISPUTE_NOT_FOUND',
      )
    })

    it('a lost fraud claim whose credit was spent is refused, and nothing changes', async () => {
      const { token, card, spendable, auth } = await payment('40.00')
      const opened = ok<CardDispute>(
        await dispute(token, auth.id, { reason: 'fraud', details: 'Not me.' }),
        201,
      )
      // Spend everything: 500.00 on the account after the credit.
      const spent = await network({
        card_id: card.id,
        type: 'AUTHORIZATION',
        amount: '500.00',
        merchant: SHOP,
      })
      expect(spent.status).toBe('APPROVED')
      const refused: LightMyRequestResponse = await decision(opened.id, 'lost')
      expectProblem(refused, 409, 'INSUFFICIENT_FUNDS')
      expect(
        ok<CardDispute>(await call(token, 'GET', `/issuing/disputes/${opened.id}`)),
      ).toMatchObject({ status: 'SUBMITTED', credit: { provisional: true } })
      expect(await balance(app.db, spendable, EUR)).toBe(0n)
      await expectLedgerInvariants(app)
    })
  },
)
