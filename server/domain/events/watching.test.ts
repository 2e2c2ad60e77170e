import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { NotificationList, WebhookEndpoint } from '../../../contract/events.ts'
import type { OutboxMessage } from '../../../contract/sandbox.ts'
import type { SessionList, SessionsEnded } from '../../../contract/security.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signIn,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import {
  addEndpoint,
  browserKeys,
  DISPATCH,
  drain,
  joinTelegram,
  startReceiver,
  userIdOf,
} from './events-test-support.ts'

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/*
 * Issue 26, finding 2: a stolen token sets up no way of watching the person
 * (webhooks, their secrets, push devices, mutes); security changes reach the
 * person on every channel, e-mail included, whatever they muted; and signing
 * the other sessions out takes away what those sessions set up.
 */
describeServer('watching the person: guarded, told, and taken away with its session', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ ...DISPATCH, OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  type Method = 'GET' | 'POST' | 'PATCH' | 'PUT'
  const v1 = (token: string, method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: headers({ authorization: token }),
      ...(payload && { payload }),
    })
  const v2 = (token: string, method: Method, url: string, payload?: object, extra = {}) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers({ ...bearer(token), ...extra }),
      ...(payload && { payload }),
    })

  /** The owner, stepped up, and a thief holding another session's token. */
  async function ownerAndThief() {
    const email = uniqueEmail('watched')
    const owner = await signUp(app, { email, kyc: false, stepUp: true })
    const thief = (await signIn(app, { email })).json<TokenPair>()
    return { email, owner, thief }
  }

  /** The security notices the sandbox mailed to `email`, newest first. */
  const mailed = async (email: string) =>
    (await app.inject({ method: 'GET', url: `/api/sandbox/outbox?to=${email}` }))
      .json<{ data: OutboxMessage[] }>()
      .data.filter((message) => message.purpose === 'security_notice')

  it('a stolen token adds no webhook, reads or rotates no secret, moves no URL, adds no device, mutes nothing', async () => {
    const receiver = await startReceiver()
    try {
      const { owner, thief } = await ownerAndThief()
      const endpoint = await addEndpoint(app, owner, { url: `${receiver.url}/owner` })
      const token = thief.access_token
      const attempts = [
        v1(token, 'POST', '/developer/webhooks', { url: `${receiver.url}/thief` }),
        v1(token, 'GET', `/developer/webhooks/${endpoint.id}/secret`),
        v1(token, 'PATCH', `/developer/webhooks/${endpoint.id}`, { url: `${receiver.url}/moved` }),
        v1(token, 'POST', `/developer/webhooks/${endpoint.id}/rotate-secret`, {
          overlap_seconds: 0,
        }),
        v2(token, 'POST', '/push/subscriptions', {
          endpoint: `${receiver.url}/push/thief`,
          keys: browserKeys().keys,
        }),
        v2(token, 'PUT', '/notifications/preferences', { muted: ['card.authorization.approved'] }),
      ]
      for (const attempt of await Promise.all(attempts)) {
        expectProblem(attempt, 403, 'STEP_UP_REQUIRED')
      }
      const endpoints = (await v1(owner.access_token, 'GET', '/developer/webhooks')).json<{
        data: WebhookEndpoint[]
      }>()
      expect(endpoints.data.map((each) => each.url)).toEqual([`${receiver.url}/owner`])
      const muted = (await v2(owner.access_token, 'GET', '/notifications/preferences')).json()
      expect(muted).toEqual({ muted: [] })
    } finally {
      await receiver.close()
    }
  })

  it('an endpoint added, its URL moved or its secret rotated is told; its other settings are not', async () => {
    const { owner } = await ownerAndThief()
    const endpoint = await addEndpoint(app, owner, { url: 'http://127.0.0.1:9/a' })
    const patch = (body: object) =>
      v1(owner.access_token, 'PATCH', `/developer/webhooks/${endpoint.id}`, body)
    expect((await patch({ description: 'renamed', enabled: false })).statusCode).toBe(200)
    expect((await patch({ url: 'http://127.0.0.1:9/a' })).statusCode).toBe(200)
    expect((await patch({ url: 'http://127.0.0.1:9/b' })).statusCode).toBe(200)
    const rotated = await v1(
      owner.access_token,
      'POST',
      `/developer/webhooks/${endpoint.id}/rotate-secret`,
      {},
    )
    expect(rotated.statusCode).toBe(200)
    const told = await app.db
      .selectFrom('events')
      .select(['kind', 'payload'])
      .where('user_id', '=', await userIdOf(app, owner))
      .orderBy('id')
      .execute()
    expect(told.map((event) => [event.kind, event.payload])).toEqual([
      [
        'security.webhook_endpoint_added',
        { endpoint_id: endpoint.id, url: 'http://127.0.0.1:9/a' },
      ],
      [
        'security.webhook_endpoint_changed',
        { endpoint_id: endpoint.id, url: 'http://127.0.0.1:9/b', change: 'url' },
      ],
      [
        'security.webhook_endpoint_changed',
        { endpoint_id: endpoint.id, url: 'http://127.0.0.1:9/b', change: 'secret' },
      ],
    ])
  })

  it('security kinds cannot be muted: 422 naming each one', async () => {
    const { owner } = await ownerAndThief()
    const refused = expectProblem(
      await v2(owner.access_token, 'PUT', '/notifications/preferences', {
        muted: ['card.issued', 'deposit.detected', 'security.passkey_added'],
      }),
      422,
      'NOTIFICATION_KIND_NOT_MUTABLE',
    )
    expect(refused.errors?.map((error) => error.field)).toEqual(['/body/muted/0', '/body/muted/2'])
    const saved = await v2(owner.access_token, 'PUT', '/notifications/preferences', {
      muted: ['deposit.detected'],
    })
    expect(saved.json()).toEqual({ muted: ['deposit.detected'] })
  })

  it('a security change reaches the centre, push, Telegram and e-mail whatever was muted', async () => {
    const pushService = await startReceiver()
    try {
      const { email, owner } = await ownerAndThief()
      const userId = await userIdOf(app, owner)
      const chatId = await joinTelegram(app, userId)
      // A mute of a security kind set before issue 26 (the migration drops such rows).
      await app.db
        .insertInto('notification_mutes')
        .values({ user_id: userId, tenant_id: DEMO_TENANT_ID, kind: 'security.api_key_created' })
        .execute()
      const subscribed = await v2(
        owner.access_token,
        'POST',
        '/push/subscriptions',
        { endpoint: `${pushService.url}/push/owner`, keys: browserKeys().keys },
        { 'user-agent': CHROME_MAC },
      )
      expect(subscribed.statusCode, subscribed.body).toBe(204)
      const created = await v1(owner.access_token, 'POST', '/developer/access/create', {
        name: 'told anyway',
        role: 'READ_ONLY',
      })
      expect(created.statusCode).toBe(201)
      await drain(app)

      expect(pushService.received).toHaveLength(2)
      const bot = await app.inject({
        method: 'GET',
        url: `/api/sandbox/outbox/telegram?chat_id=${chatId}`,
      })
      expect(
        bot.json<{ data: { text: string }[] }>().data.map((m) => m.text.split('\n')[0]),
      ).toEqual(['API key created', 'Push notifications turned on'])
      const mails = await mailed(email)
      expect(mails.map((mail) => mail.subject)).toEqual([
        'Finplatform: API key created',
        'Finplatform: Push notifications turned on',
      ])
      expect(mails[1]).toMatchObject({ channel: 'email', code: null })
      expect(mails[1]!.body).toContain('Chrome, macOS')
      expect(mails[1]!.body).toContain('/profile')
      expect(mails[1]!.body).toContain('sign out every other session')
    } finally {
      await pushService.close()
    }
  })

  it('“mark all read” leaves security alerts unread: they are read by id, once opened', async () => {
    const { owner } = await ownerAndThief()
    await v1(owner.access_token, 'POST', '/developer/access/create', {
      name: 'x',
      role: 'READ_ONLY',
    })
    await app.inject({
      method: 'POST',
      url: '/api/sandbox/kyc/decision',
      headers: headers(bearer(owner.access_token)),
      payload: { status: 'APPROVED' },
    })
    await drain(app)
    const list = async () =>
      (await v2(owner.access_token, 'GET', '/notifications')).json<NotificationList>()
    expect((await list()).unread).toBe(2)
    const all = await v2(owner.access_token, 'POST', '/notifications/read', {})
    expect(all.json()).toEqual({ unread: 1 })
    const [alert] = (await list()).data.filter((item) => item.read_at === null)
    expect(alert?.kind).toBe('security.api_key_created')
    const opened = await v2(owner.access_token, 'POST', '/notifications/read', { ids: [alert!.id] })
    expect(opened.json()).toEqual({ unread: 0 })
  })

  it('signing the others out removes the webhook, device and key their sessions set up', async () => {
    const receiver = await startReceiver()
    try {
      const { owner, thief } = await ownerAndThief()
      // The thief got one code past the person (phished): their session set things up.
      await stepUp(app, thief.access_token)
      await addEndpoint(app, thief, {
        url: `${receiver.url}/thief`,
        event_kinds: ['deposit.confirmed', 'security.api_key_created'],
      })
      const device = await v2(
        thief.access_token,
        'POST',
        '/push/subscriptions',
        { endpoint: `${receiver.url}/push/thief`, keys: browserKeys().keys },
        { 'user-agent': CHROME_MAC },
      )
      expect(device.statusCode).toBe(204)
      const key = (
        await v1(thief.access_token, 'POST', '/developer/access/create', {
          name: 'backdoor',
          role: 'READ_ONLY',
        })
      ).json<{ id: string; secret: string }>()

      const sessions = (await v2(owner.access_token, 'GET', '/user/sessions')).json<SessionList>()
      const theirs = sessions.data.find((session) => !session.current)!
      expect(theirs.created.map((item) => [item.kind, item.name])).toEqual([
        ['webhook_endpoint', `${receiver.url}/thief`],
        ['push_subscription', 'Chrome, macOS'],
        ['api_key', 'backdoor'],
      ])
      expect(sessions.data.find((session) => session.current)!.created).toEqual([])

      const ended = await v2(owner.access_token, 'POST', '/user/sessions/sign-out-others', {
        remove_created: true,
      })
      const answer = ended.json<SessionsEnded>()
      expect(answer.ended).toBe(1)
      expect(answer.removed.map((item) => item.kind)).toEqual([
        'webhook_endpoint',
        'push_subscription',
        'api_key',
      ])
      expect(answer.removed.map((item) => item.id)).toEqual(theirs.created.map((item) => item.id))

      // The thief's endpoint hears nothing more, and their key opens nothing.
      await drain(app)
      receiver.received.length = 0
      await v1(owner.access_token, 'POST', '/developer/access/create', {
        name: 'mine',
        role: 'READ_ONLY',
      })
      await drain(app)
      expect(receiver.received).toEqual([])
      const byKey = await app.inject({
        method: 'GET',
        url: '/api/v2/wallets',
        headers: headers({ 'x-api-key': key.secret }),
      })
      expectProblem(byKey, 401, 'API_KEY_INVALID')
    } finally {
      await receiver.close()
    }
  })

  it('without remove_created, what the ended sessions set up stays', async () => {
    const receiver = await startReceiver()
    try {
      const { owner, thief } = await ownerAndThief()
      await stepUp(app, thief.access_token)
      await addEndpoint(app, thief, { url: `${receiver.url}/kept` })
      const ended = await v2(owner.access_token, 'POST', '/user/sessions/sign-out-others')
      expect(ended.json()).toEqual({ ended: 1, removed: [] })
      const endpoints = (await v1(owner.access_token, 'GET', '/developer/webhooks')).json<{
        data: WebhookEndpoint[]
      }>()
      expect(endpoints.data.map((each) => each.url)).toEqual([`${receiver.url}/kept`])
    } finally {
      await receiver.close()
    }
  })
})
