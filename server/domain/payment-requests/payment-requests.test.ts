import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type {
  PaidRequest,
  PaymentRequest,
  PaymentRequestList,
  PaymentRequestView,
} from '../../../contract/payment-requests.ts'
import { createTestApp, describeServer, expectProblem, headers } from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { as, euros, eventsOf, type Person, person } from '../transfers/transfer-test-support.ts'
import { VIEWS_PER_IP_PER_MINUTE } from './routes.ts'

/**
 * Asking to be paid (issue 32 part 2): a request with its links and QR code,
 * the public view a payer opens without signing in, and paying it once —
 * also when two payers press at the same moment.
 */
describeServer('payment requests', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      RATES_SANDBOX_LATENCY_MS: '0',
      PUBLIC_URL: 'https://wallet.example',
      TELEGRAM_BOT_USERNAME: '@finplatform_bot',
      TELEGRAM_MINI_APP_NAME: 'wallet',
    })
  })
  afterAll(() => app?.close())

  const ask = (requester: Person, body: Record<string, unknown>) =>
    as(app, requester, 'POST', '/payment-requests', { currency_uuid: CUR.EUR, ...body })

  const pay = (payer: Person, id: string, requestId = crypto.randomUUID()) =>
    as(app, payer, 'POST', `/payment-requests/${id}/pay`, {
      wallet_uuid: payer.walletId,
      request_id: requestId,
    })

  /** The public view, as someone with the link and no account opens it. */
  const open = (id: string) =>
    app.inject({ method: 'GET', url: `/api/v2/payment-requests/${id}`, headers: headers() })

  const payer = async (first: string, amount = '100') => {
    const who = await person(app, first, 'Payer', { stepUp: true })
    await fund(app.db, who.walletId, CUR.EUR, amount)
    return who
  }

  it('makes a request with its link, Telegram link and QR code; the public view says only what a payer needs', async () => {
    const anna = await person(app, 'Anna', 'Asks', { discoverable: false })

    const response = await ask(anna, { amount: '12.5', note: 'Pizza' })

    expect(response.statusCode, response.body).toBe(201)
    const request = response.json<PaymentRequest>()
    expect(request).toMatchObject({
      status: 'OPEN',
      requester: { display_name: 'Anna A.', initial: 'A' },
      amount: { currency: 'EUR', amount: '12.50' },
      note: 'Pizza',
      url: `https://wallet.example/pay/${request.id}`,
      telegram_url: `https://t.me/finplatform_bot/wallet?startapp=pr_${request.id}`,
      wallet_uuid: anna.walletId,
      paid_at: null,
    })
    expect(request.qr_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)

    const view = await open(request.id)
    expect(view.statusCode).toBe(200)
    expect(Object.keys(view.json()).sort()).toEqual(
      ['amount', 'created_at', 'expires_at', 'id', 'note', 'requester', 'status'].sort(),
    )
    expect(view.body).not.toContain(anna.email)
    expect(view.body).not.toContain(anna.walletId)

    const mine = (await as(app, anna, 'GET', '/payment-requests')).json<PaymentRequestList>()
    expect(mine.data.map((item) => item.id)).toEqual([request.id])
    expectProblem(await open(crypto.randomUUID()), 404, 'PAYMENT_REQUEST_NOT_FOUND')
  })

  it('the public view is limited per address: past the limit a 429, for known and unknown ids alike', async () => {
    const anna = await person(app, 'Anna', 'Limits')
    const request = (await ask(anna, { amount: '5' })).json<PaymentRequest>()
    const view = (id: string) =>
      app.inject({
        method: 'GET',
        url: `/api/v2/payment-requests/${id}`,
        headers: headers(),
        remoteAddress: '203.0.113.77',
      })
    const statuses: number[] = []
    for (let i = 0; i < VIEWS_PER_IP_PER_MINUTE; i++) {
      statuses.push((await view(i % 2 ? request.id : crypto.randomUUID())).statusCode)
    }
    expect(new Set(statuses)).toEqual(new Set([200, 404]))
    expectProblem(await view(request.id), 429, 'RATE_LIMITED')
    expectProblem(await view(crypto.randomUUID()), 429, 'RATE_LIMITED')
    // Another address is not held back by the first one's calls.
    expect((await open(request.id)).statusCode).toBe(200)
  })

  it('is paid once: the money moves, the requester is told, a second payer gets 409 and pays nothing', async () => {
    const anna = await person(app, 'Anna', 'Once', { discoverable: false })
    const mia = await payer('Mia')
    const sam = await payer('Sam')
    const request = (await ask(anna, { amount: '20', note: 'Dinner' })).json<PaymentRequest>()

    const key = crypto.randomUUID()
    const paid = await pay(mia, request.id, key)

    expect(paid.statusCode, paid.body).toBe(201)
    expect(paid.json<PaidRequest>()).toMatchObject({
      request: { id: request.id, status: 'PAID' },
      transfer: {
        status: 'COMPLETE',
        payment_request_id: request.id,
        note: 'Dinner',
        counterparty: { name: 'Anna O.' },
      },
    })
    expect(await euros(app, anna)).toBe('20.00')
    expect(await euros(app, mia)).toBe('80.00')
    expect((await open(request.id)).json<PaymentRequestView>().status).toBe('PAID')
    expect(await eventsOf(app, anna.userId, 'p%')).toMatchObject([
      { kind: 'payment_request.paid', payload: { payer_name: 'Mia P.', amount: '20.00' } },
    ])

    expectProblem(await pay(sam, request.id), 409, 'REQUEST_ALREADY_PAID')
    expect(await euros(app, sam)).toBe('100.00')
    // The payer's retry (the same request_id) is the first answer again, not a second payment.
    const again = await pay(mia, request.id, key)
    expect(again.statusCode, again.body).toBe(201)
    expect(again.json<PaidRequest>().transfer.id).toBe(paid.json<PaidRequest>().transfer.id)
    expect(await euros(app, mia)).toBe('80.00')
  })

  it('two payers at once: exactly one pays', async () => {
    const anna = await person(app, 'Anna', 'Race', { discoverable: false })
    const payers = await Promise.all(['Mia', 'Sam', 'Bea', 'Lou'].map((first) => payer(first)))
    const request = (await ask(anna, { amount: '30' })).json<PaymentRequest>()

    const answers = await Promise.all(payers.map((who) => pay(who, request.id)))

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409])
    for (const answer of answers.filter((one) => one.statusCode === 409)) {
      expect(answer.json()).toMatchObject({ code: 'REQUEST_ALREADY_PAID' })
    }
    expect(await euros(app, anna)).toBe('30.00')
    const left = await Promise.all(payers.map((who) => euros(app, who)))
    expect(left.sort()).toEqual(['100.00', '100.00', '100.00', '70.00'])
    await expectLedgerInvariants(app)
  })

  it('a cancelled or expired request takes no payment; the requester cannot pay their own', async () => {
    const anna = await person(app, 'Anna', 'Ends', { discoverable: false })
    const mia = await payer('Mia')
    const cancelled = (await ask(anna, { amount: '5' })).json<PaymentRequest>()
    const cancel = await as(app, anna, 'DELETE', `/payment-requests/${cancelled.id}`)
    expect(cancel.statusCode, cancel.body).toBe(200)
    expect(cancel.json<PaymentRequest>().status).toBe('CANCELED')
    expectProblem(await pay(mia, cancelled.id), 409, 'REQUEST_NOT_PAYABLE')

    const soon = new Date(Date.now() + 60_000).toISOString()
    const expiring = (await ask(anna, { amount: '5', expires_at: soon })).json<PaymentRequest>()
    await app.db
      .updateTable('payment_requests')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute()
    expect((await open(expiring.id)).json<PaymentRequestView>().status).toBe('EXPIRED')
    expectProblem(await pay(mia, expiring.id), 409, 'REQUEST_NOT_PAYABLE')

    const own = (await ask(anna, { amount: '5' })).json<PaymentRequest>()
    await fund(app.db, anna.walletId, CUR.EUR, '5')
    expectProblem(await pay(anna, own.id), 422, 'CANNOT_PAY_YOURSELF')

    const past = new Date(Date.now() - 60_000).toISOString()
    expectProblem(await ask(anna, { amount: '5', expires_at: past }), 422, 'VALIDATION_FAILED')
    expectProblem(await ask(anna, { amount: '0' }), 422, 'VALIDATION_FAILED')
    expect(await euros(app, mia)).toBe('100.00')
  })
})
