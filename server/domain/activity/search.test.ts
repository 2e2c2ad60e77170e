import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Merchant } from '../../../contract/card-transactions.ts'
import { toMinor } from '../../../contract/money.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createTestApp, createWallet, describeServer, expectProblem } from '../../test-support.ts'
import { cardCalls, testCardKeys } from '../cards/card-test-support.ts'
import { insertGeneratedActivities } from './activity-fixtures.ts'
import { activityCalls } from './activity-test-support.ts'

/*
 * Issue 31: the feed's search narrows by when (`from`, `to`), by how much
 * (`min`, `max`) and by `status`, alone and together with the older filters.
 */

const shop = (name: string, mcc = '5411'): Merchant => ({
  name,
  mcc,
  city: 'Lisbon',
  country: 'PT',
})

describeServer('searching the activity feed by date, amount and status', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { fundedCard } = cardCalls(() => app)
  const { get, everything, network } = activityCalls(() => app)

  /** A card (€100) with four payments on four days in March 2025, one of them declined. */
  async function spender() {
    const owner = await fundedCard(10_000n)
    const days = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04']
    const payments = [
      { amount: '5.00', merchant: shop('Corner Shop') },
      { amount: '12.50', merchant: shop('Café Lisboa', '5814') },
      { amount: '40.00', merchant: shop('Livraria Bertrand', '5942') },
      // More than is left: declined.
      { amount: '500.00', merchant: shop('Electro Mundo', '5732') },
    ]
    for (const [i, payment] of payments.entries()) {
      const answer = await network(owner.card.id, { type: 'AUTHORIZATION', ...payment })
      await app.db
        .updateTable('activities')
        .set({ created_at: new Date(`${days[i]}T10:00:00Z`) })
        .where('source_id', '=', answer.id)
        .execute()
    }
    const names = async (query: Record<string, string>) =>
      (await everything(owner.token, query)).map((item) => item.merchant?.name)
    return { owner, names }
  }

  it('from (inclusive) and to (exclusive) bound when it happened', async () => {
    const { names } = await spender()
    expect(await names({ from: '2025-03-02T10:00:00Z' })).toEqual([
      'Electro Mundo',
      'Livraria Bertrand',
      'Café Lisboa',
    ])
    expect(await names({ to: '2025-03-02T10:00:00Z' })).toEqual(['Corner Shop'])
    expect(await names({ from: '2025-03-02T00:00:00Z', to: '2025-03-04T00:00:00Z' })).toEqual([
      'Livraria Bertrand',
      'Café Lisboa',
    ])
  })

  it('min and max (inclusive) bound the amount in its own currency, to the last digit', async () => {
    const { names } = await spender()
    expect(await names({ min: '12.5' })).toEqual([
      'Electro Mundo',
      'Livraria Bertrand',
      'Café Lisboa',
    ])
    expect(await names({ min: '12.51' })).toEqual(['Electro Mundo', 'Livraria Bertrand'])
    expect(await names({ max: '12.50', currency: 'eur' })).toEqual(['Café Lisboa', 'Corner Shop'])
    expect(await names({ min: '5', max: '40' })).toEqual([
      'Livraria Bertrand',
      'Café Lisboa',
      'Corner Shop',
    ])
    expect(await names({ min: '0.000000000000000001', max: '4.99' })).toEqual([])
  })

  it('status narrows to items that stand so, and every filter combines with the others', async () => {
    const { names } = await spender()
    expect(await names({ status: 'declined' })).toEqual(['Electro Mundo'])
    expect(await names({ status: 'pending', min: '10' })).toEqual([
      'Livraria Bertrand',
      'Café Lisboa',
    ])
    expect(
      await names({ status: 'pending', q: 'lisboa', from: '2025-03-02T00:00:00Z', max: '20' }),
    ).toEqual(['Café Lisboa'])
    expect(await names({ type: 'send', status: 'pending' })).toEqual([])
  })

  it('a range that holds nothing, or a bound that is not a decimal, is 422 naming the field', async () => {
    const { owner } = await spender()
    const asked = async (query: string, field: string) => {
      const problem = expectProblem(
        await get(owner.token, `/activity?${query}`),
        422,
        'VALIDATION_FAILED',
      )
      expect([...new Set(problem.errors?.map((error) => error.field))]).toEqual([field])
    }
    await asked('from=2025-03-05T00:00:00Z&to=2025-03-01T00:00:00Z', '/querystring/from')
    await asked('min=10&max=9.99', '/querystring/min')
    await asked('min=-1', '/querystring/min')
    await asked('max=1e3', '/querystring/max')
    await asked('status=done', '/querystring/status')
    await asked('from=yesterday', '/querystring/from')
  })

  it('a rare word among thousands of items is found through the trigram index, in the feed’s order', async () => {
    const { owner } = await spender()
    const { id: userId } = (await get(owner.token, '/user')).json<{ id: string }>()
    const other = await createWallet(app, owner.token, 'trading')
    await insertGeneratedActivities(
      app.db,
      { tenantId: DEMO_TENANT_ID, userId, walletId: owner.wallet.uuid, otherWalletId: other.uuid },
      3_000,
    )
    // A narrow amount range is sorted, a wide one walks the feed: the same items in the same order.
    const all = await everything(owner.token, { min: '0' })
    expect(all.length).toBeGreaterThan(3_000)
    const narrow = await everything(owner.token, { min: '50', max: '51' })
    const inRange = (amount: string) =>
      toMinor(amount, 6) >= 50_000_000n && toMinor(amount, 6) <= 51_000_000n
    expect(narrow.length).toBeGreaterThan(20)
    expect(narrow.map((item) => item.id)).toEqual(
      all.filter((item) => inRange(item.amount.amount)).map((item) => item.id),
    )
    const found = await everything(owner.token, { q: 'payee 2998' })
    expect(found.map((item) => item.counterparty_name)).toEqual(['Payee 2998'])
    const many = await everything(owner.token, { q: 'payee 29', status: 'pending' })
    // Payees are every third item from the first; pending, every eleventh: newest (lowest) first.
    expect(many.map((item) => item.counterparty_name)).toEqual([
      'Payee 2926',
      'Payee 2959',
      'Payee 2992',
    ])
  })
})
