import type { LightMyRequestResponse } from 'fastify'
import { expect, it } from 'vitest'
import type { CardTransaction, CardTransactionList } from '../../../contract/card-transactions.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { describeServer, expectProblem } from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'
import { balance, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { transfer } from '../ledger/rules.ts'
import { post, systemAccount } from '../ledger/service.ts'
import { cardNetworkApp, SHOP } from './card-network-fixtures.ts'

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

describeServer('card network: concurrent and replayed messages', () => {
  const { app, call, tokenOf, cardholder, holdOf, network, authorize } = cardNetworkApp()

  it('serialises concurrent authorisations of one card: the limits and the balance hold', async () => {
    const { card, spendable } = await cardholder(30_000n)
    const results = await Promise.all(Array.from({ length: 8 }, () => authorize(card.id, '100.00')))
    expect(results.filter((t) => t.status === 'APPROVED')).toHaveLength(3)
    expect(results.filter((t) => t.decline_reason === 'INSUFFICIENT_FUNDS')).toHaveLength(5)
    expect(await balance(app().db, spendable, EUR)).toBe(0n)
    await expectLedgerInvariants(app())
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
    expect(await balance(app().db, spendable, EUR)).toBe(7_000n)
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
    expect(await balance(app().db, spendable, EUR)).toBe(7_000n)
    await expectLedgerInvariants(app())
  })

  if (onPostgres) {
    // Two connections are needed: PGlite has one, so this race exists only on PostgreSQL.
    it('an authorisation whose hold the ledger refuses (its balance spent meanwhile) is DECLINED, never a 500', async () => {
      const { card, spendable } = await cardholder(1_000n)
      const fees = await systemAccount(app().db, DEMO_TENANT_ID, 'fees')
      let answer: Promise<LightMyRequestResponse> | undefined
      await app()
        .db.transaction()
        .execute(async (trx) => {
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
      expect(await balance(app().db, spendable, EUR)).toBe(0n)
      const entries = await app()
        .db.selectFrom('journal_entries')
        .select('id')
        .where('idempotency_key', '=', `card_tx:${declined.id}:hold`)
        .execute()
      expect(entries).toEqual([])
      await expectLedgerInvariants(app())
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
    expect(await balance(app().db, spendable, EUR)).toBe(8_800n)
    await expectLedgerInvariants(app())
  })
})
