import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { PersonLookup, RecentPeople, Transfer } from '../../../contract/transfers.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CUR, fund } from '../orders/order-fixtures.ts'
import { as, euros, eventsOf, type Person, person } from './transfer-test-support.ts'

/**
 * Paying another person of the tenant (issue 32 part 1): the ledger move and
 * both people's words, idempotency, finding people without telling who is a
 * customer, and the second look for a first payment to someone new.
 */
describeServer('transfers between people', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ RATES_SANDBOX_LATENCY_MS: '0' })
  })
  afterAll(() => app?.close())

  const named = (first: string, last: string, discoverable = true) =>
    person(app, first, last, { discoverable, stepUp: true })

  const send = (from: Person, body: Record<string, unknown>) =>
    as(app, from, 'POST', '/transfers', {
      wallet_uuid: from.walletId,
      currency_uuid: CUR.EUR,
      request_id: crypto.randomUUID(),
      ...body,
    })

  it('pays a findable person at once: one ledger move, each side in their own words', async () => {
    const mia = await named('Mia', 'Wagner')
    const anna = await named('Anna', 'Schmidt')
    await fund(app.db, mia.walletId, CUR.EUR, '50')

    const response = await send(mia, { to: { email: anna.email }, amount: '20', note: 'Dinner' })

    expect(response.statusCode, response.body).toBe(201)
    const transfer = response.json<Transfer>()
    expect(transfer).toMatchObject({
      status: 'COMPLETE',
      direction: 'out',
      note: 'Dinner',
      counterparty: { name: 'Anna S.', initial: 'A' },
      amount: { currency: 'EUR', amount: '20.00' },
      contact: null,
    })
    expect(await euros(app, mia)).toBe('30.00')
    expect(await euros(app, anna)).toBe('20.00')
    await expectLedgerInvariants(app)

    const annaSees = await as(app, anna, 'GET', `/transfers/${transfer.id}`)
    expect(annaSees.json<Transfer>()).toMatchObject({
      direction: 'in',
      counterparty: { name: 'Mia W.' },
      note: 'Dinner',
    })
    // The note shows on both items, and the feed's search finds it.
    const miaFeed = (await as(app, mia, 'GET', '/activity?q=dinner')).json<ActivityPage>()
    expect(miaFeed.data).toMatchObject([
      { type: 'send', status: 'complete', counterparty_name: 'Anna S.', note: 'Dinner' },
    ])
    const annaFeed = (await as(app, anna, 'GET', '/activity?q=dinner')).json<ActivityPage>()
    expect(annaFeed.data).toMatchObject([
      { type: 'receive', status: 'complete', counterparty_name: 'Mia W.', note: 'Dinner' },
    ])

    // Each person's own event, the other named in it.
    expect(await eventsOf(app, mia.userId, 'transfer.%')).toMatchObject([
      {
        kind: 'transfer.sent',
        payload: { to_name: 'Anna S.', amount: '20.00', status: 'COMPLETE' },
      },
    ])
    expect(await eventsOf(app, anna.userId, 'transfer.%')).toMatchObject([
      { kind: 'transfer.received', payload: { from_name: 'Mia W.', note: 'Dinner' } },
    ])

    const recent = (await as(app, mia, 'GET', '/people/recent')).json<RecentPeople>()
    expect(recent.data).toMatchObject([
      { user_id: anna.userId, display_name: 'Anna S.', initial: 'A' },
    ])
    const theirs = (await as(app, anna, 'GET', '/people/recent')).json<RecentPeople>()
    expect(theirs.data).toMatchObject([{ user_id: mia.userId, display_name: 'Mia W.' }])

    // Someone paid before is paid by id from the picker.
    const byId = await send(anna, { to: { user_id: mia.userId }, amount: '5' })
    expect(byId.statusCode, byId.body).toBe(201)
    expect(await euros(app, mia)).toBe('35.00')
  })

  it('the same request_id and body answer the first transfer again; another body is 409', async () => {
    const mia = await named('Mia', 'Idem')
    const anna = await named('Anna', 'Idem')
    await fund(app.db, mia.walletId, CUR.EUR, '50')
    const body = { to: { email: anna.email }, amount: '10', request_id: crypto.randomUUID() }

    const first = await send(mia, body)
    const again = await send(mia, body)

    expect(first.statusCode, first.body).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect(await euros(app, mia)).toBe('40.00')
    expect(await euros(app, anna)).toBe('10.00')
    expectProblem(await send(mia, { ...body, amount: '11' }), 409, 'IDEMPOTENCY_CONFLICT')
  })

  it('refuses what it cannot do, and moves nothing', async () => {
    const mia = await named('Mia', 'Refused')
    const anna = await named('Anna', 'Refused')
    await fund(app.db, mia.walletId, CUR.EUR, '5')

    expectProblem(
      await send(mia, { to: { email: anna.email }, amount: '6' }),
      422,
      'INSUFFICIENT_FUNDS',
    )
    expectProblem(
      await send(mia, { to: { email: mia.email }, amount: '1' }),
      422,
      'CANNOT_PAY_YOURSELF',
    )
    expectProblem(
      await send(mia, { to: { email: anna.email }, amount: '1.001' }),
      422,
      'VALIDATION_FAILED',
    )
    // Someone never paid and not findable is nobody to pay by id.
    const stranger = await named('Sam', 'Stranger', false)
    expectProblem(
      await send(mia, { to: { user_id: stranger.userId }, amount: '1' }),
      404,
      'RECIPIENT_NOT_FOUND',
    )
    expectProblem(
      await send(mia, { to: { user_id: crypto.randomUUID() }, amount: '1' }),
      404,
      'RECIPIENT_NOT_FOUND',
    )
    expect(await euros(app, mia)).toBe('5.00')
    expect(await euros(app, anna)).toBe('0.00')
  })

  it('a lookup names a findable person; an unknown contact and a hidden one answer the same', async () => {
    const mia = await named('Mia', 'Looks')
    const shown = await named('Anna', 'Shown')
    const hidden = await named('Hanna', 'Hidden', false)
    const lookup = (email: string) =>
      as(app, mia, 'GET', `/people/lookup?email=${encodeURIComponent(email.toUpperCase())}`)

    const found = await lookup(shown.email)
    expect(found.statusCode).toBe(200)
    expect(found.json<PersonLookup>()).toEqual({
      found: true,
      display_name: 'Anna S.',
      initial: 'A',
    })

    const unknown = await lookup(uniqueEmail('nobody'))
    const hiddenAnswer = await lookup(hidden.email)
    expect(hiddenAnswer.statusCode).toBe(unknown.statusCode)
    expect(hiddenAnswer.body).toBe(unknown.body)
    expect(hiddenAnswer.json()).toEqual({ found: false, display_name: null, initial: null })

    expectProblem(await as(app, mia, 'GET', '/people/lookup'), 422, 'VALIDATION_FAILED')
    const two = `email=${encodeURIComponent(shown.email)}&phone=4915100000000`
    expectProblem(await as(app, mia, 'GET', `/people/lookup?${two}`), 422, 'VALIDATION_FAILED')
  })

  it('paying a hidden person answers as paying a stranger would: it waits, then the job pays them', async () => {
    const mia = await named('Mia', 'Hides')
    const hidden = await named('Hanna', 'Quiet', false)
    await fund(app.db, mia.walletId, CUR.EUR, '10')

    const response = await send(mia, { to: { email: hidden.email }, amount: '4' })

    expect(response.statusCode, response.body).toBe(201)
    const transfer = response.json<Transfer>()
    expect(transfer).toMatchObject({
      status: 'AWAITING_CLAIM',
      contact: hidden.email,
      counterparty: { name: hidden.email },
    })
    expect(await euros(app, mia)).toBe('6.00')
    await app.jobs.runDue({ now: new Date(), limit: 50 })
    expect(await euros(app, hidden)).toBe('4.00')
    const after = await as(app, mia, 'GET', `/transfers/${transfer.id}`)
    expect(after.json<Transfer>()).toMatchObject({ status: 'COMPLETE' })
    expect(await eventsOf(app, mia.userId, 'transfer.%')).toMatchObject([
      { kind: 'transfer.sent', payload: { status: 'AWAITING_CLAIM' } },
      { kind: 'transfer.claimed', payload: { to_name: 'Hanna Q.' } },
    ])
    await expectLedgerInvariants(app)
  })

  it('look-ups are counted per person: past the limit a 429, whatever the contact', async () => {
    const mia = await named('Mia', 'Counts')
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) {
      const email = encodeURIComponent(uniqueEmail())
      statuses.push((await as(app, mia, 'GET', `/people/lookup?email=${email}`)).statusCode)
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200))
    expect(statuses[20]).toBe(429)
  })

  it('look-ups are counted per client address too, whoever is signed in', async () => {
    const people = await Promise.all(
      ['Ann', 'Ben', 'Cat', 'Dan'].map((first) => named(first, 'Ip')),
    )
    const from = '10.32.0.7'
    const look = (who: Person) =>
      app.inject({
        method: 'GET',
        url: `/api/v2/people/lookup?email=${encodeURIComponent(uniqueEmail())}`,
        headers: headers(bearer(who.token)),
        remoteAddress: from,
      })
    // Twenty each for three people: the address's sixty.
    for (const who of people.slice(0, 3)) {
      for (let i = 0; i < 20; i++) expect((await look(who)).statusCode).toBe(200)
    }
    expectProblem(await look(people[3]!), 429, 'RATE_LIMITED')
  })

  it('the second look: a first payment to someone new above the threshold, not the next one', async () => {
    const mia = await person(app, 'Mia', 'Threshold')
    const anna = await named('Anna', 'Threshold')
    await fund(app.db, mia.walletId, CUR.EUR, '500')
    const pay = (to: Person, amount: string) => send(mia, { to: { email: to.email }, amount })

    expectProblem(await pay(anna, '150'), 403, 'STEP_UP_REQUIRED')
    // At the tenant's threshold (100 EUR by default): no second look; then no longer new.
    expect((await pay(anna, '100')).statusCode).toBe(201)
    expect((await pay(anna, '150')).statusCode).toBe(201)

    const setThreshold = (amount: string) =>
      app.db
        .updateTable('tenants')
        .set({ new_payee_step_up_amount: amount })
        .where('id', '=', DEMO_TENANT_ID)
        .execute()
    await setThreshold('0')
    try {
      const bea = await named('Bea', 'Zero')
      expectProblem(await pay(bea, '1'), 403, 'STEP_UP_REQUIRED')
      await stepUp(app, mia.token)
      expect((await pay(bea, '1')).statusCode).toBe(201)
    } finally {
      await setThreshold('100')
    }
  })
})
