import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Card } from '../../../contract/cards.ts'
import type { BotMessage } from '../../../contract/events.ts'
import { LOCKDOWN_ACTS, type Lockdown } from '../../../contract/lockdown.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { ROUTE_POLICY } from '../../route-policy.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  refresh,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import {
  cardCalls,
  ledgerAccountOf,
  ok,
  PREPAID,
  testCardKeys,
} from '../cards/card-test-support.ts'
import { DISPATCH, drain, joinTelegram, userIdOf } from '../events/events-test-support.ts'
import { credit, EUR } from '../ledger/ledger-test-support.ts'

const SHOP = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const SOME_ID = '0190b0a4-0000-7000-8000-000000000001'

/*
 * Issue 30: "That wasn't me". A lockdown freezes every card and ends every
 * other session at once, and refuses what a thief cashes out or stays in
 * with until it is lifted; one tap on an alert (Telegram, e-mail) locks
 * exactly its person, once.
 */
describeServer('lockdown', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp({ ...keys.env, ...DISPATCH, OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  const { call } = cardCalls(() => app)
  const v2 = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(token)),
      ...(payload && { payload }),
    })
  const cardOf = async (token: string, id: string) =>
    ok<Card & { frozen_by_lockdown: boolean }>(await call(token, 'GET', `/issuing/cards/${id}`))
  const authorize = (cardId: string) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      payload: {
        card_id: cardId,
        type: 'AUTHORIZATION',
        amount: '5.00',
        currency: 'EUR',
        merchant: SHOP,
      },
    })
  /** A person with a card, signed in twice: `token` (this device) and `other` (another). */
  const personOnTwoDevices = async () => {
    const email = uniqueEmail()
    const pair = await signUp(app, { email, stepUp: true })
    const { token, card } = await fundedCardFor(pair)
    const other = (await signIn(app, { email })).json<TokenPair>()
    return { email, pair, token, card, other }
  }
  /** A stand-alone virtual EUR card of the holder of `pair`, its account funded. */
  const fundedCardFor = async (pair: TokenPair) => {
    const token = pair.access_token
    const wallet = await createWallet(app, token)
    const card = ok<Card>(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    await credit(
      app.db,
      DEMO_TENANT_ID,
      await ledgerAccountOf(app, card.fiat_account.id),
      EUR,
      50_000n,
    )
    return { token, card }
  }
  const startedAgo = (userId: string, minutes: number) =>
    app.db
      .updateTable('lockdowns')
      .set({ started_at: sql<Date>`now() - make_interval(mins => ${minutes})` })
      .where('user_id', '=', userId)
      .where('lifted_at', 'is', null)
      .execute()

  it('freezes every card and ends every other session at once, and says what it refuses', async () => {
    const { pair, token, card, other } = await personOnTwoDevices()
    expect(ok<Lockdown>(await v2('GET', '/user/lockdown', token))).toMatchObject({
      active: false,
      refused: [...LOCKDOWN_ACTS],
    })
    const locked = ok<Lockdown>(
      await v2('POST', '/user/lockdown', token, { reason: ' lost phone ' }),
    )
    expect(locked).toMatchObject({
      active: true,
      reason: 'lost phone',
      via: 'app',
      cards_frozen: 1,
      sessions_ended: 1,
      refused: [...LOCKDOWN_ACTS],
    })
    expect(Date.parse(locked.lift_after!) - Date.parse(locked.started_at!)).toBe(600_000)
    expect(await cardOf(token, card.id)).toMatchObject({
      status: 'FROZEN',
      frozen_by_lockdown: true,
    })
    expect((await authorize(card.id)).json()).toMatchObject({ decline_reason: 'CARD_FROZEN' })
    // The other device is out at once: its access token and its refresh token.
    expectProblem(await v2('GET', '/user', other.access_token), 401, 'UNAUTHORIZED')
    expectProblem(await refresh(app, other.refresh_token), 401, 'INVALID_REFRESH_TOKEN')
    expect((await v2('GET', '/user', token)).statusCode).toBe(200)
    expect(ok<Lockdown>(await v2('GET', '/user/lockdown', token))).toEqual(locked)
    // Again: the same lockdown, told once.
    expect(ok<Lockdown>(await v2('POST', '/user/lockdown', token, {}))).toEqual(locked)
    const told = await app.db
      .selectFrom('events')
      .select('payload')
      .where('kind', '=', 'security.lockdown')
      .where('user_id', '=', await userIdOf(app, pair))
      .execute()
    expect(told.map((row) => row.payload)).toEqual([
      { state: 'started', via: 'app', reason: 'lost phone', cards_frozen: 1, sessions_ended: 1 },
    ])
  })

  it('refuses every act the policy marks with 409 LOCKDOWN_ACTIVE, whatever the body, and nothing else', async () => {
    const { token } = await personOnTwoDevices()
    const marked = Object.entries(ROUTE_POLICY).flatMap(([key, policy]) =>
      policy.access === 'person' && policy.refusedInLockdown
        ? [[key, policy.refusedInLockdown]]
        : [],
    )
    // The list, each act at least once.
    expect(new Set(marked.map(([, act]) => act))).toEqual(new Set(LOCKDOWN_ACTS))
    const callAll = async () => {
      const answers = new Map<string, { status: number; code?: string; act?: string }>()
      for (const [key] of marked) {
        const [method, path] = key!.split(' ') as [string, string]
        const response = await app.inject({
          method: method as 'POST',
          url: path.replace(/\{[^}]+\}/g, SOME_ID),
          // v1 takes the bare token, as the platform it mirrors does.
          headers: headers(path.startsWith('/api/v1') ? { authorization: token } : bearer(token)),
          payload: {},
        })
        const body = response.json<{ code?: string; act?: string }>()
        answers.set(key!, { status: response.statusCode, code: body.code, act: body.act })
      }
      return answers
    }
    for (const [key, answer] of await callAll()) {
      expect(answer.code, key).not.toMatch(/LOCKDOWN_ACTIVE|UNAUTHORIZED/)
    }
    ok(await v2('POST', '/user/lockdown', token, {}))
    for (const [key, act] of marked) {
      const answer = (await callAll()).get(key!)!
      expect(answer, key).toEqual({ status: 409, code: 'LOCKDOWN_ACTIVE', act })
    }
    // What is not marked still answers: the person can read, freeze and tighten.
    expect((await v2('GET', '/user', token)).statusCode).toBe(200)
    expect((await call(token, 'GET', '/issuing/cards')).statusCode).toBe(200)
  })

  it('is lifted only with the second look and after ten minutes; its cards are unfrozen one by one', async () => {
    const { email, pair, token, card } = await personOnTwoDevices()
    const second = await fundedCardFor(pair)
    ok(await v2('POST', '/user/lockdown', token, {}))
    expectProblem(await v2('DELETE', '/user/lockdown', token), 409, 'LOCKDOWN_TOO_EARLY')
    const userId = await userIdOf(app, pair)
    await startedAgo(userId, 11)
    // A session without a fresh proof (signed in after the lockdown) cannot lift it.
    const fresh = (await signIn(app, { email })).json<TokenPair>()
    expectProblem(await v2('DELETE', '/user/lockdown', fresh.access_token), 403, 'STEP_UP_REQUIRED')
    expect(ok<Lockdown>(await v2('DELETE', '/user/lockdown', token))).toMatchObject({
      active: false,
    })
    expectProblem(await v2('DELETE', '/user/lockdown', token), 409, 'LOCKDOWN_NOT_ACTIVE')
    // The cards stay frozen until the person unfreezes each.
    for (const id of [card.id, second.card.id]) {
      expect(await cardOf(token, id)).toMatchObject({ status: 'FROZEN', frozen_by_lockdown: true })
    }
    ok(await call(token, 'PATCH', `/issuing/cards/${card.id}/unfreeze`))
    expect(await cardOf(token, card.id)).toMatchObject({
      status: 'ACTIVE',
      frozen_by_lockdown: false,
    })
    expect(await cardOf(token, second.card.id)).toMatchObject({ status: 'FROZEN' })
    expect((await authorize(card.id)).json()).toMatchObject({ status: 'APPROVED' })
    const told = await app.db
      .selectFrom('events')
      .select(sql<string>`payload->>'state'`.as('state'))
      .where('kind', '=', 'security.lockdown')
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute()
    expect(told.map((row) => row.state)).toEqual(['started', 'lifted'])
  })

  it('a tap on the bot’s button locks exactly its person, from their chat, once', async () => {
    const { pair, token, card } = await personOnTwoDevices()
    const bystander = await personOnTwoDevices()
    const userId = await userIdOf(app, pair)
    const chatId = await joinTelegram(app, userId)
    const otherChat = await joinTelegram(app, await userIdOf(app, bystander.pair))
    expect((await authorize(card.id)).json()).toMatchObject({ status: 'APPROVED' })
    await drain(app)
    const messages = (
      await app.inject({ method: 'GET', url: `/api/sandbox/outbox/telegram?chat_id=${chatId}` })
    ).json<{ data: BotMessage[] }>().data
    const alert = messages.find((message) => message.lock_callback_data)
    expect(alert).toMatchObject({ lock_button_text: 'That wasn’t me — lock' })
    const data = alert!.lock_callback_data!
    const tap = (chat: string, callback: string) =>
      app.inject({
        method: 'POST',
        url: '/api/sandbox/telegram/callback',
        payload: { chat_id: chat, callback_data: callback },
      })
    const forged = `${data.slice(0, 40)}${data[40] === 'A' ? 'B' : 'A'}${data.slice(41)}`
    for (const [chat, callback] of [
      [chatId, forged],
      [otherChat, data],
    ] as const) {
      expect((await tap(chat, callback)).json()).toMatchObject({ locked: false })
    }
    expect(ok<Lockdown>(await v2('GET', '/user/lockdown', token))).toMatchObject({ active: false })
    const done = (await tap(chatId, data)).json()
    expect(done).toEqual({
      locked: true,
      text: 'Done: your cards are frozen and other devices are signed out.',
    })
    // Made signed out, it ends every session: the tap cannot tell which is the person's.
    expectProblem(await v2('GET', '/user', token), 401, 'UNAUTHORIZED')
    const row = await app.db
      .selectFrom('lockdowns')
      .select(['via', 'cards_frozen', 'sessions_ended'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ via: 'telegram', cards_frozen: 1, sessions_ended: 2 })
    // Replayed: nothing more happens.
    expect((await tap(chatId, data)).json()).toMatchObject({ locked: false })
    expect(ok<Lockdown>(await v2('GET', '/user/lockdown', bystander.token))).toMatchObject({
      active: false,
    })
    const replies = (
      await app.inject({ method: 'GET', url: `/api/sandbox/outbox/telegram?chat_id=${chatId}` })
    ).json<{ data: BotMessage[] }>().data
    expect(replies.map((message) => message.text)).toContain(
      'Done: your cards are frozen and other devices are signed out.',
    )
  })

  it('the security e-mail’s one-time link locks its person, once; and never twice', async () => {
    const email = uniqueEmail()
    const pair = await signUp(app, { email, stepUp: true })
    const userId = await userIdOf(app, pair)
    // A sign-in from a device the person never used: the alert that can mean theft.
    const thief = await signIn(app, { email, headers: headers({ 'user-agent': PHONE_UA }) })
    expect(thief.statusCode).toBe(200)
    await drain(app)
    const mails = await app.db
      .selectFrom('sandbox_outbox')
      .select('body')
      .where('recipient', '=', email)
      .where('purpose', '=', 'security_notice')
      .execute()
    const link = mails
      .map((mail) => /\/lockdown#token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1])
      .find(Boolean)
    expect(link, mails.map((mail) => mail.body).join('\n---\n')).toBeDefined()
    const open = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v2/lockdown/link',
        headers: headers(),
        payload: { token },
      })
    const done = await open(link!)
    expect(done.statusCode, done.body).toBe(200)
    expect(done.json()).toEqual({
      locked: true,
      message: 'Done: your cards are frozen and other devices are signed out.',
    })
    expectProblem(
      await v2('GET', '/user', thief.json<TokenPair>().access_token),
      401,
      'UNAUTHORIZED',
    )
    const row = await app.db
      .selectFrom('lockdowns')
      .select('via')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(row.via).toBe('email')
    expectProblem(await open(link!), 422, 'LOCKDOWN_LINK_INVALID')
    expectProblem(await open('x'.repeat(62)), 422, 'LOCKDOWN_LINK_INVALID')
  })
})
