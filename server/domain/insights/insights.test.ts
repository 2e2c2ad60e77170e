import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Merchant } from '../../../contract/card-transactions.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import type { BalanceHistory, SpendingInsights } from '../../../contract/insights.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { cardCalls, EUR_BALANCE, ok, testCardKeys } from '../cards/card-test-support.ts'
import { bookedAt } from '../ledger/booking-time.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { statementCalls } from '../statements/statement-test-support.ts'

const shop = (name: string, mcc: string): Merchant => ({ name, mcc, city: 'Berlin', country: 'DE' })
const at = (iso: string) => new Date(iso)

describeServer('insights: where the money went, and how a balance moved', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { person, onAccount } = cardCalls(() => app)
  const { get, sepaCredit, network } = statementCalls(() => app)

  /** Moves an item (by the card message or record that made it) to a moment. */
  const dated = (sourceId: string, when: string) =>
    app.db
      .updateTable('activities')
      .set({ created_at: at(when) })
      .where('source_id', '=', sourceId)
      .execute()

  /**
   * February: €20 at a café. March: salary €100 in, the card's €5 issue fee,
   * €30 of groceries with €10 refunded, €12.50 at a café, a €99 payment declined.
   */
  async function spender() {
    const { token, wallet } = await person()
    const account = ok<FiatAccount>(
      await app.inject({
        method: 'POST',
        url: `/api/v2/fiat-accounts/${wallet.uuid}`,
        headers: headers(bearer(token)),
        payload: { program_id: EUR_BALANCE },
      }),
      201,
    )
    await sepaCredit(account, '100.00', 'Acme GmbH')
    const card = await onAccount(token, account.id)
    const pay = async (amount: string, merchant: Merchant, when: string) => {
      const paid = await network(card.id, { type: 'AUTHORIZATION', amount, merchant })
      await dated(paid.id, when)
      return paid
    }
    await pay('20.00', shop('Café Einstein', '5814'), '2026-02-20T12:00:00Z')
    const groceries = await pay('30.00', shop('Edeka', '5411'), '2026-03-05T18:00:00Z')
    await network(card.id, { type: 'CLEARING', amount: '30.00', authorization_id: groceries.id })
    await network(card.id, { type: 'REFUND', amount: '10.00', authorization_id: groceries.id })
    await pay('12.50', shop('Café Einstein', '5814'), '2026-03-31T22:30:00Z')
    await pay('99.00', shop('Electro', '5732'), '2026-03-10T10:00:00Z')
    await app.db
      .updateTable('activities')
      .set({ created_at: at('2026-03-01T08:00:00Z') })
      .where('user_id', '=', (await get(token, '/user')).json<{ id: string }>().id)
      .where('type', 'in', ['deposit', 'fee'])
      .execute()
    return { token, wallet, account, card }
  }

  const spending = async (token: string, query: Record<string, string>) =>
    ok<SpendingInsights>(await get(token, `/insights/spending?${new URLSearchParams(query)}`))

  const march = { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' }

  it('by category: card payments by their merchant’s group, refunds taken off, fees apart, income beside', async () => {
    const { token } = await spender()
    const answer = await spending(token, { ...march, currency: 'EUR' })
    expect(answer).toMatchObject({
      group: 'category',
      currency: 'EUR',
      spending: '37.50',
      income: '100.00',
      previous_spending: '20.00',
      previous_income: '0.00',
      rate_basis: 'none',
      rates_as_of: null,
    })
    expect(
      answer.groups.map((g) => [g.key, g.spending, g.count, g.previous_spending, g.change_percent]),
    ).toEqual([
      ['groceries', '20.00', 1, '0.00', null],
      ['restaurants', '12.50', 1, '20.00', '-37.5'],
      ['fees', '5.00', 1, '0.00', null],
    ])
  })

  it('by month, in the person’s zone: a payment late on 31 March in Berlin is April’s', async () => {
    const { token } = await spender()
    const answer = await spending(token, {
      from: '2026-02-01T00:00:00+01:00',
      to: '2026-05-01T00:00:00+02:00',
      group: 'month',
      time_zone: 'Europe/Berlin',
    })
    expect(answer.groups.map((g) => [g.key, g.spending, g.income, g.change_percent])).toEqual([
      ['2026-02', '20.00', '0.00', null],
      ['2026-03', '25.00', '100.00', '25.0'],
      ['2026-04', '12.50', '0.00', '-50.0'],
    ])
  })

  it('by merchant: whom it went to, biggest first', async () => {
    const { token } = await spender()
    const answer = await spending(token, { ...march, group: 'merchant' })
    expect(answer.groups.map((g) => [g.key, g.spending])).toEqual([
      ['Edeka', '20.00'],
      ['Café Einstein', '12.50'],
    ])
  })

  it('in another display currency, at today’s rates, and says so', async () => {
    const { token } = await spender()
    const answer = await spending(token, { ...march, currency: 'USD' })
    expect(answer.rate_basis).toBe('current')
    expect(answer.rates_as_of).toEqual(expect.any(String))
    const cents = (amount: string) => BigInt(amount.replace('.', ''))
    // The groups add up to the total, and dollars are worth less than euros.
    expect(answer.groups.reduce((sum, g) => sum + cents(g.spending), 0n)).toBe(
      cents(answer.spending),
    )
    expect(cents(answer.spending)).toBeGreaterThan(3750n)
  })

  it('a wallet’s balance at the end of each day and week, from the ledger, with its total', async () => {
    const { token, wallet } = await person()
    await bookedAt(at('2026-03-02T09:00:00Z'), () => fund(app.db, wallet.uuid, CUR.EUR, '100.00'))
    await bookedAt(at('2026-03-04T09:00:00Z'), () => fund(app.db, wallet.uuid, CUR.EUR, '50.00'))
    await bookedAt(at('2026-03-10T09:00:00Z'), () => fund(app.db, wallet.uuid, CUR.USDT_TRON, '10'))
    const read = async (query: Record<string, string>) =>
      ok<BalanceHistory>(
        await get(
          token,
          `/insights/balance-history?${new URLSearchParams({ wallet_uuid: wallet.uuid, ...query })}`,
        ),
      )
    const days = await read({ from: '2026-03-03T00:00:00Z', to: '2026-03-06T00:00:00Z' })
    expect(
      days.currencies.map((c) => [c.currency, c.points.map((p) => `${p.date} ${p.balance}`)]),
    ).toEqual([['EUR', ['2026-03-03 100.00', '2026-03-04 150.00', '2026-03-05 150.00']]])
    expect(days.total).toBeNull()
    const weeks = await read({
      from: '2026-03-01T00:00:00Z',
      to: '2026-03-15T00:00:00Z',
      interval: 'week',
      currency: 'EUR',
    })
    expect(
      weeks.currencies.map((c) => [c.currency, c.points.map((p) => `${p.date} ${p.balance}`)]),
    ).toEqual([
      ['USDT', ['2026-02-23 0.000000', '2026-03-02 0.000000', '2026-03-09 10.000000']],
      ['EUR', ['2026-02-23 0.00', '2026-03-02 150.00', '2026-03-09 150.00']],
    ])
    const total = weeks.total!.points.map((p) => p.balance)
    expect(total.slice(0, 2)).toEqual(['0.00', '150.00'])
    expect(Number(total[2])).toBeGreaterThan(150)
  })

  it('another person’s wallet is 404; a period that holds nothing or an unknown zone is 422', async () => {
    const owner = await person()
    const stranger = await person()
    expectProblem(
      await get(
        stranger.token,
        `/insights/balance-history?wallet_uuid=${owner.wallet.uuid}&from=${march.from}&to=${march.to}`,
      ),
      404,
      'WALLET_NOT_FOUND',
    )
    const refused = async (query: string, field: string) => {
      const problem = expectProblem(
        await get(owner.token, `/insights/spending?${query}`),
        422,
        'VALIDATION_FAILED',
      )
      expect(problem.errors?.map((error) => error.field)).toContain(field)
    }
    await refused(`from=${march.to}&to=${march.from}`, '/querystring/from')
    await refused('from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z', '/querystring/to')
    await refused(
      `from=${march.from}&to=${march.to}&time_zone=Nowhere/Land`,
      '/querystring/time_zone',
    )
    await refused(`from=${march.from}&to=${march.to}&group=week`, '/querystring/group')
    await refused(`from=${march.from}&to=${march.to}&currency=BTC`, '/querystring/currency')
  })
})
