import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { createTestApp, describeServer, headers, signUp, uniqueEmail } from '../../test-support.ts'
import { launchUser, signedInitData, TEST_BOT_TOKEN } from '../auth/telegram-test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { balances, CUR, fund } from '../orders/order-fixtures.ts'
import { as, euros, eventsOf, person } from './transfer-test-support.ts'

const DAY = 24 * 60 * 60 * 1000

/**
 * A transfer to a contact who is not a customer yet (issue 32): the money
 * held in the sender's wallet, an invitation by e-mail, signing up with that
 * contact claims it; seven days on, nobody having claimed it, it comes back.
 */
describeServer('claimable transfers', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({
      RATES_SANDBOX_LATENCY_MS: '0',
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    })
  })
  afterAll(() => app?.close())

  async function drain(now = new Date()) {
    for (;;) {
      const report = await app.jobs.runDue({ now, limit: 50 })
      if (report.done + report.rescheduled + report.failed === 0) return
    }
  }

  const invitesTo = (email: string) =>
    app.db
      .selectFrom('sandbox_outbox')
      .select(['purpose', 'code', 'subject', 'body'])
      .where('recipient', '=', email)
      .where('purpose', '=', 'transfer_invite')
      .execute()

  async function sendToNewcomer(amount: string) {
    const mia = await person(app, 'Mia', 'Sender', { stepUp: true })
    await fund(app.db, mia.walletId, CUR.EUR, '50')
    const newcomer = uniqueEmail('newcomer')
    const response = await as(app, mia, 'POST', '/transfers', {
      to: { email: newcomer },
      wallet_uuid: mia.walletId,
      currency_uuid: CUR.EUR,
      amount,
      note: 'Concert tickets',
      request_id: crypto.randomUUID(),
    })
    expect(response.statusCode, response.body).toBe(201)
    return { mia, newcomer, transfer: response.json<Transfer>() }
  }

  it('holds the money, invites the contact, and the sign-up with it claims the transfer', async () => {
    const { mia, newcomer, transfer } = await sendToNewcomer('20')

    expect(transfer).toMatchObject({ status: 'AWAITING_CLAIM', contact: newcomer })
    expect(await balances(app.db, mia.walletId, CUR.EUR)).toEqual({
      available: '30.00',
      held: '20.00',
    })
    const pending = (await as(app, mia, 'GET', '/activity')).json<ActivityPage>()
    expect(pending.data[0]).toMatchObject({ status: 'pending', counterparty_name: newcomer })

    await drain()
    const [invite, ...more] = await invitesTo(newcomer)
    expect(more).toEqual([])
    expect(invite).toMatchObject({ code: null, subject: 'Mia S. sent you €20.00' })
    expect(invite!.body).toContain('Concert tickets')
    expect(invite!.body).toContain('/auth/sign-up')

    // Signing up with that e-mail claims it: the job the sign-up starts pays them.
    const pair = await signUp(app, { email: newcomer })
    await drain()
    const wallets = (await as(app, { token: pair.access_token }, 'GET', '/wallets')).json<{
      data: { uuid: string }[]
    }>()
    expect(await euros(app, { walletId: wallets.data[0]!.uuid })).toBe('20.00')
    expect(await balances(app.db, mia.walletId, CUR.EUR)).toEqual({
      available: '30.00',
      held: '0.00',
    })
    const theirs = (
      await as(app, { token: pair.access_token }, 'GET', '/activity')
    ).json<ActivityPage>()
    expect(theirs.data).toMatchObject([
      { type: 'receive', status: 'complete', counterparty_name: 'Mia S.', note: 'Concert tickets' },
    ])
    const after = (await as(app, mia, 'GET', `/transfers/${transfer.id}`)).json<Transfer>()
    expect(after).toMatchObject({ status: 'COMPLETE', expires_at: null })
    expect(await eventsOf(app, mia.userId, 'transfer.%')).toMatchObject([
      { kind: 'transfer.sent', payload: { status: 'AWAITING_CLAIM', to_name: newcomer } },
      { kind: 'transfer.claimed', payload: { amount: '20.00' } },
    ])
    // Nothing is left to return at the deadline.
    await drain(new Date(Date.now() + 8 * DAY))
    expect((await balances(app.db, mia.walletId, CUR.EUR)).available).toBe('30.00')
    await expectLedgerInvariants(app)
  })

  it('nobody claims it within 7 days: it comes back, and the sender is told', async () => {
    const { mia, newcomer, transfer } = await sendToNewcomer('12.50')
    await drain()

    // A day early nothing moves.
    await drain(new Date(Date.now() + 6 * DAY))
    expect((await balances(app.db, mia.walletId, CUR.EUR)).held).toBe('12.50')

    await drain(new Date(Date.now() + 7 * DAY + 60_000))
    expect(await balances(app.db, mia.walletId, CUR.EUR)).toEqual({
      available: '50.00',
      held: '0.00',
    })
    const after = (await as(app, mia, 'GET', `/transfers/${transfer.id}`)).json<Transfer>()
    expect(after.status).toBe('RETURNED')
    const feed = (await as(app, mia, 'GET', '/activity')).json<ActivityPage>()
    expect(feed.data[0]).toMatchObject({ status: 'failed', counterparty_name: newcomer })
    expect(await eventsOf(app, mia.userId, 'transfer.%')).toMatchObject([
      { kind: 'transfer.sent' },
      { kind: 'transfer.returned', payload: { to_name: newcomer, amount: '12.50' } },
    ])

    // Signing up afterwards claims nothing: the money is the sender's again.
    const pair = await signUp(app, { email: newcomer })
    await drain()
    const wallets = (await as(app, { token: pair.access_token }, 'GET', '/wallets')).json<{
      data: { uuid: string }[]
    }>()
    expect(await euros(app, { walletId: wallets.data[0]!.uuid })).toBe('0.00')
    await expectLedgerInvariants(app)
  })

  it('a Telegram sign-up claims what waited for its username, and may be found from then on', async () => {
    const mia = await person(app, 'Mia', 'Telegram', { stepUp: true })
    await fund(app.db, mia.walletId, CUR.EUR, '10')
    const username = `Ada_${crypto.randomUUID().slice(0, 8)}`
    const sent = await as(app, mia, 'POST', '/transfers', {
      to: { telegram_username: `@${username}` },
      wallet_uuid: mia.walletId,
      currency_uuid: CUR.EUR,
      amount: '3',
      request_id: crypto.randomUUID(),
    })
    expect(sent.json<Transfer>()).toMatchObject({
      status: 'AWAITING_CLAIM',
      contact: `@${username.toLowerCase()}`,
    })
    await drain()
    const lookup = () =>
      as(app, mia, 'GET', `/people/lookup?telegram_username=${username.toUpperCase()}`)
    expect((await lookup()).json()).toEqual({ found: false, display_name: null, initial: null })

    const joined = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-up/telegram',
      headers: headers({ 'x-app-env': 'telegram' }),
      payload: {
        init_data: signedInitData({
          user: launchUser({ first_name: 'Ada', last_name: 'Byron', username }),
        }),
        terms_accepted: true,
      },
    })
    expect(joined.statusCode, joined.body).toBe(201)
    await drain()

    const token = joined.json<{ access_token: string }>().access_token
    const wallets = (await as(app, { token }, 'GET', '/wallets')).json<{
      data: { uuid: string }[]
    }>()
    expect(await euros(app, { walletId: wallets.data[0]!.uuid })).toBe('3.00')
    expect((await lookup()).json()).toEqual({ found: true, display_name: 'Ada B.', initial: 'A' })
    const profile = (await as(app, { token }, 'GET', '/user/user-data')).json()
    expect(profile).toMatchObject({ people_discoverable: true })
  })
})
