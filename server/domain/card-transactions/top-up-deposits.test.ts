import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CardTransactionList } from '../../../contract/card-transactions.ts'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createTestApp, describeServer, expectProblem, headers } from '../../test-support.ts'
import { defaultProgramId } from '../issuing/default-programs.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import {
  accountBalance,
  balances,
  CUR,
  fund,
  getOrder,
  insertFiatAccount,
  minus,
  orderUser,
  place,
  placed,
  quote,
  v1,
} from '../orders/order-fixtures.ts'

describeServer('top-ups of fiat accounts as DEPOSIT card transactions', () => {
  let app: FastifyInstance

  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it.each([
    ['TRANSFER_CARD_PREPAID', 'prepaid', CUR.EUR, '100.00'],
    ['TRANSFER_CARD_SUBACCOUNT', 'balance', CUR.EUR, '80.00'],
    ['TRANSFER_CARD_WHOLESALE', 'balance', CUR.USDT_TRON, '500'],
  ] as const)(
    '%s writes a DEPOSIT on the fiat account (no card) with its ledger entry, once',
    async (orderType, subAccountType, from, amount) => {
      const user = await orderUser(app)
      await fund(app.db, user.walletId, from, '1000')
      const account = await insertFiatAccount(app.db, user.walletId, { subAccountType })
      const q = await quote(app, user, {
        order_type: orderType,
        from_uuid: from,
        fiat_account_id: account.id,
        amount_from: amount,
      })
      const order = await placed(app, user, q)
      // Nothing is written before the order completes.
      const listed = async () =>
        (
          await v1(app, user, 'GET', `/issuing/transactions/?fiat_account_id=${account.id}`)
        ).json<CardTransactionList>()
      expect((await listed()).total).toBe(0)
      await app.jobs.runDue({ now: new Date() })
      expect((await getOrder(app, user, order.id)).status).toBe('COMPLETE')

      const list = await listed()
      expect(list.data).toEqual([
        expect.objectContaining({
          card_id: null,
          card_last4: null,
          fiat_account_id: account.id,
          wallet_uuid: user.walletId,
          type: 'DEPOSIT',
          status: 'SETTLED',
          amount: q.to.amount,
          currency: 'EUR',
          merchant: null,
          authorization_id: null,
        }),
      ])
      expect(list.data[0]!.fee_kind).toBeUndefined()
      // What the account received is what the record says.
      expect(await accountBalance(app.db, account.ledgerAccountId, CUR.EUR)).toBe(q.to.amount)
      // The fiat account's own list (v1) and the owner's whole list show it as well.
      const own = (
        await v1(app, user, 'GET', `/fiat_accounts/${account.id}/transactions`)
      ).json<CardTransactionList>()
      expect(own.data.map((t) => t.id)).toEqual([list.data[0]!.id])
      const all = (await v1(app, user, 'GET', '/issuing/transactions')).json<CardTransactionList>()
      expect(all.data.map((t) => t.id)).toContain(list.data[0]!.id)
      const row = await app.db
        .selectFrom('card_transactions')
        .select('operation_id')
        .where('id', '=', list.data[0]!.id)
        .executeTakeFirstOrThrow()
      expect(row.operation_id).toBe(order.id)

      // The job run again writes nothing twice.
      await app.jobs.runDue({ now: new Date(Date.now() + 3_600_000), limit: 1_000 })
      expect((await listed()).total).toBe(1)
      await expectLedgerInvariants(app)
    },
  )

  it('a card’s own list and CSV leave the account’s deposits out', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '300.00')
    const card = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/issuing/cards/create',
        headers: headers({ authorization: user.token }),
        payload: {
          wallet_uuid: user.walletId,
          program_id: defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
          form_factor: 'VIRTUAL',
        },
      })
    ).json<Card>()
    const q = await quote(app, user, {
      order_type: 'TRANSFER_CARD_PREPAID',
      from_uuid: CUR.EUR,
      fiat_account_id: card.fiat_account.id,
      amount_from: '50.00',
    })
    await placed(app, user, q)
    await app.jobs.runDue({ now: new Date() })
    const byAccount = (
      await v1(app, user, 'GET', `/issuing/transactions/?fiat_account_id=${card.fiat_account.id}`)
    ).json<CardTransactionList>()
    expect(byAccount.data.map((t) => t.type)).toEqual(['DEPOSIT'])
    const byCard = (
      await v1(app, user, 'GET', `/issuing/transactions/?card_id=${card.id}`)
    ).json<CardTransactionList>()
    expect(byCard.total).toBe(0)
    const csv = await v1(app, user, 'GET', `/issuing/transactions/csv?card_id=${card.id}`)
    expect(csv.statusCode).toBe(200)
    expect(csv.body.trim().split('\r\n')).toHaveLength(1)
  })

  it('refuses at placement a top-up of a fiat account CANCELED since the quote: 422, nothing held', async () => {
    const user = await orderUser(app)
    await fund(app.db, user.walletId, CUR.EUR, '100.00')
    const account = await insertFiatAccount(app.db, user.walletId, { subAccountType: 'prepaid' })
    const q = await quote(app, user, {
      order_type: 'TRANSFER_CARD_PREPAID',
      from_uuid: CUR.EUR,
      fiat_account_id: account.id,
      amount_from: '50.00',
    })
    await app.db
      .updateTable('fiat_accounts')
      .set({ status: 'CANCELED' })
      .where('id', '=', account.id)
      .execute()
    const refused = expectProblem(
      await place(app, user, q.order_type, { quote_id: q.quote_id }),
      422,
      'FIAT_ACCOUNT_UNAVAILABLE',
    )
    expect(refused.errors).toEqual([{ field: '/body/quote_id', message: expect.any(String) }])
    expect(refused.detail).toContain('CANCELED')
    expect(await balances(app.db, user.walletId, CUR.EUR)).toEqual({
      available: '100.00',
      held: '0.00',
    })
    const orders = await app.db
      .selectFrom('orders')
      .select('id')
      .where('wallet_id', '=', user.walletId)
      .execute()
    expect(orders).toEqual([])

    // Still ACTIVE at placement: placed and held as before.
    const open = await insertFiatAccount(app.db, user.walletId, { subAccountType: 'prepaid' })
    const fine = await quote(app, user, {
      order_type: 'TRANSFER_CARD_PREPAID',
      from_uuid: CUR.EUR,
      fiat_account_id: open.id,
      amount_from: '50.00',
    })
    await placed(app, user, fine)
    expect((await balances(app.db, user.walletId, CUR.EUR)).available).toBe(
      minus('100.00', fine.total, 2),
    )
  })
})
