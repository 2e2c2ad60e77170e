import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  DEFAULT_PASSWORD,
  decideKyc,
  describeServer,
  headers,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { latestCode } from '../otp/otp-test-support.ts'
import { DISPATCH, drain, eventKinds, raw, userIdOf } from './events-test-support.ts'

/** Every `events` row written while `action` runs, for one person: the kinds, in order. */
async function producedBy(app: FastifyInstance, userId: string, action: () => Promise<unknown>) {
  const before = (await eventKinds(app, userId)).length
  await action()
  return (await eventKinds(app, userId)).slice(before)
}

describeServer('events: each kind comes from its action and from nothing else', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  it('kyc.status_changed: a decision, with the status before and after; signing up makes no event', async () => {
    const email = uniqueEmail('kyc')
    const pair = await signUp(app, { email, kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    expect(await eventKinds(app, userId)).toEqual([])
    const kinds = await producedBy(app, userId, () => decideKyc(app, pair.access_token, 'APPROVED'))
    expect(kinds).toEqual(['kyc.status_changed'])
    const event = await app.db
      .selectFrom('events')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(event).toMatchObject({
      version: 1,
      payload: { status: 'APPROVED', previous_status: 'UNVERIFIED', reason: null },
    })
    // The same status again changes nothing, and tells nothing.
    expect(
      await producedBy(app, userId, () => decideKyc(app, pair.access_token, 'APPROVED')),
    ).toEqual([])
  })

  it('security.sign_in_new_device: a sign-in from another user agent, not from a known one', async () => {
    const email = uniqueEmail('device')
    const laptop = headers({ 'user-agent': 'Laptop/1.0' })
    const phone = headers({ 'user-agent': 'Phone/2.0' })
    const pair = await signUp(app, { email, kyc: false, stepUp: true, headers: laptop })
    const userId = await userIdOf(app, pair)
    expect(
      await producedBy(app, userId, async () => {
        const again = await signIn(app, { email, password: DEFAULT_PASSWORD, headers: laptop })
        expect(again.statusCode, again.body).toBe(200)
      }),
    ).toEqual([])
    expect(
      await producedBy(app, userId, async () => {
        const fresh = await signIn(app, { email, password: DEFAULT_PASSWORD, headers: phone })
        expect(fresh.statusCode, fresh.body).toBe(200)
      }),
    ).toEqual(['security.sign_in_new_device'])
    // A wrong password opens no session and tells nothing.
    expect(
      await producedBy(app, userId, () =>
        signIn(app, {
          email,
          password: 'not the password at all',
          headers: headers({ 'user-agent': 'X/1' }),
        }),
      ),
    ).toEqual([])
  })

  it('security.api_key_created: creating a key; rotating it is a change, listing nothing', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    let keyId = ''
    expect(
      await producedBy(app, userId, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/create',
          headers: raw(pair),
          payload: { name: 'CI', role: 'READ_ONLY' },
        })
        expect(response.statusCode, response.body).toBe(201)
        keyId = response.json<{ id: string }>().id
      }),
    ).toEqual(['security.api_key_created'])
    expect(
      await producedBy(app, userId, async () => {
        await app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/rotate',
          headers: raw(pair),
          payload: { id: keyId },
        })
        await app.inject({
          method: 'GET',
          url: '/api/v1/developer/access/list',
          headers: raw(pair),
        })
      }),
    ).toEqual(['security.api_key_changed'])
  })

  it('security.contact_changed: confirming a new e-mail, not asking for the code', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const email = uniqueEmail('moved')
    const request = () =>
      app.inject({
        method: 'PATCH',
        url: '/api/v2/user/email',
        headers: headers(bearer(pair.access_token)),
        payload: { email },
      })
    expect(await producedBy(app, userId, request)).toEqual([])
    const code = await latestCode(app, email)
    expect(
      await producedBy(app, userId, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v2/user/email',
          headers: headers(bearer(pair.access_token)),
          payload: { email, token: code },
        })
        expect(response.statusCode, response.body).toBe(200)
      }),
    ).toEqual(['security.contact_changed'])
    const event = await app.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', userId)
      .where('kind', '=', 'security.contact_changed')
      .executeTakeFirstOrThrow()
    expect(event.payload).toEqual({ contact: 'email', masked: `m***@example.com` })
  })

  it('deposit.detected when the chain sees a deposit (its money arrives, pending), deposit.confirmed once when it completes; recording it tells nothing', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const wallet = await createWallet(app, pair.access_token)
    const address = await app.inject({
      method: 'POST',
      url: `/api/v2/wallets/${wallet.uuid}/addresses/bitcoin`,
      headers: headers(bearer(pair.access_token)),
      payload: {},
    })
    expect(address.statusCode, address.body).toBe(201)
    let deposit: WalletTransaction | undefined
    expect(
      await producedBy(app, userId, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/sandbox/deposits',
          payload: { wallet_uuid: wallet.uuid, chain: 'bitcoin', currency: 'BTC', amount: '0.5' },
        })
        expect(response.statusCode, response.body).toBe(202)
        deposit = response.json<WalletTransaction>()
      }),
    ).toEqual([])
    // Seen, then a confirmation per block until complete: an event as each moves money, none on the way.
    let now = Date.now()
    const kinds = await producedBy(app, userId, async () => {
      for (let block = 0; block < 10; block++) {
        now += 60_000
        await drain(app, new Date(now))
      }
    })
    expect(kinds).toEqual(['deposit.detected', 'deposit.confirmed'])
    const confirmed = await app.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', userId)
      .where('kind', '=', 'deposit.confirmed')
      .executeTakeFirstOrThrow()
    expect(confirmed.payload).toMatchObject({
      wallet_id: wallet.uuid,
      transaction_id: deposit!.uuid,
      amount: '0.50000000',
      currency: 'BTC',
      chain: 'bitcoin',
    })
  })
})
