import { createECDH, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { BotMessage, PushMessage } from '../../../contract/events.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { MessageNotDeliveredError } from '../../providers/messaging/messaging.ts'
import { TelegramBotApi } from '../../providers/messaging/telegram-bot.ts'
import {
  bearer,
  createTestApp,
  decideKyc,
  describeServer,
  headers,
  signUp,
} from '../../test-support.ts'
import { runTenantCli } from '../tenants/cli.ts'
import {
  browserKeys,
  DISPATCH,
  drain,
  joinTelegram,
  startReceiver,
  userIdOf,
} from './events-test-support.ts'

/** http_ece (web-push's own dependency) decrypts what the push service received, as a browser would. */
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(
    body: Buffer,
    options: { version: string; privateKey: unknown; authSecret: string },
  ): Buffer
}

describe('the Telegram Bot API adapter, against a local fake Bot API', () => {
  it('sends sendMessage with the text and a web_app button, and reads Telegram’s refusal', async () => {
    const bot = await startReceiver({
      answer: (request) =>
        JSON.parse(request.body).chat_id === '42'
          ? { status: 200, body: '{"ok":true,"result":{"message_id":1}}' }
          : {
              status: 403,
              body: '{"ok":false,"description":"Forbidden: bot was blocked by the user"}',
            },
    })
    try {
      const api = new TelegramBotApi({ apiUrl: bot.url, token: '123:secret' })
      const message = {
        tenantId: DEMO_TENANT_ID,
        chatId: '42',
        text: 'Card payment\nCoffee: 3.50 EUR',
        button: { text: 'Open', url: 'https://app.example/cards/1' },
      }
      await api.sendMessage(message)
      expect(bot.received[0]!.path).toBe('/bot123:secret/sendMessage')
      expect(JSON.parse(bot.received[0]!.body)).toEqual({
        chat_id: '42',
        text: 'Card payment\nCoffee: 3.50 EUR',
        reply_markup: {
          inline_keyboard: [[{ text: 'Open', web_app: { url: 'https://app.example/cards/1' } }]],
        },
      })
      const refused = api.sendMessage({ ...message, chatId: '7' })
      await expect(refused).rejects.toBeInstanceOf(MessageNotDeliveredError)
      await expect(refused).rejects.toThrow(/bot was blocked/)
      await expect(refused).rejects.not.toThrow(/secret/)
    } finally {
      await bot.close()
    }
  })
})

describeServer('events: web push and Telegram, sandbox', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  const v2 = (
    pair: TokenPair,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(pair.access_token)),
      payload,
    })

  it('a subscribed device gets an encrypted, VAPID-signed push that opens the event’s screen', async () => {
    const pushService = await startReceiver({ statuses: [201] })
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const config = await v2(pair, 'GET', '/push/config')
      expect(config.json<{ public_key: string }>().public_key).toMatch(/^[A-Za-z0-9_-]{80,}$/)
      const browser = browserKeys()
      const subscribed = await v2(pair, 'POST', '/push/subscriptions', {
        endpoint: `${pushService.url}/push/device-1`,
        keys: browser.keys,
      })
      expect(subscribed.statusCode, subscribed.body).toBe(204)
      await drain(app)
      // A device added is a security event: the device itself hears of it first.
      expect(pushService.received).toHaveLength(1)
      pushService.received.length = 0
      await decideKyc(app, pair.access_token, 'APPROVED')
      await drain(app)

      expect(pushService.received).toHaveLength(1)
      const push = pushService.received[0]!
      expect(push.path).toBe('/push/device-1')
      expect(push.headers['content-encoding']).toBe('aes128gcm')
      expect(push.headers.authorization).toMatch(/^vapid t=.+, k=/)
      const message = JSON.parse(
        ece
          .decrypt(push.raw, {
            version: 'aes128gcm',
            privateKey: browser.ecdh,
            authSecret: browser.keys.auth,
          })
          .toString('utf8'),
      ) as PushMessage
      expect(message).toMatchObject({
        kind: 'kyc.status_changed',
        title: 'Identity verification',
        body: 'You’re verified',
        path: '/verify',
      })
    } finally {
      await pushService.close()
    }
  })

  it.each([
    ['null (Chromium)', null],
    ['a time (Firefox, once the service sets one)', 1_767_225_600_000],
  ])(
    'a subscription as the browser’s toJSON() gives it is taken, expirationTime %s',
    async (_, expirationTime) => {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const subscribed = await v2(pair, 'POST', '/push/subscriptions', {
        endpoint: `https://push.example/send/${expirationTime}`,
        expirationTime,
        keys: browserKeys().keys,
      })
      expect(subscribed.statusCode, subscribed.body).toBe(204)
    },
  )

  it('an expirationTime that is no time is refused with 422', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const subscribed = await v2(pair, 'POST', '/push/subscriptions', {
      endpoint: 'https://push.example/send/soon',
      expirationTime: 'soon',
      keys: browserKeys().keys,
    })
    expect(subscribed.statusCode).toBe(422)
    expect(subscribed.json()).toMatchObject({ code: 'VALIDATION_FAILED' })
  })

  it('keys no browser made are refused at registration with 422 PUSH_KEYS_INVALID', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const { keys } = browserKeys()
    const compressed = createECDH('prime256v1')
    compressed.generateKeys()
    for (const [bad, field] of [
      [
        { ...keys, p256dh: compressed.getPublicKey(null, 'compressed').toString('base64url') },
        'p256dh',
      ],
      [{ ...keys, p256dh: 'not-a-key' }, 'p256dh'],
      [{ ...keys, auth: randomBytes(8).toString('base64url') }, 'auth'],
    ] as const) {
      const refused = await v2(pair, 'POST', '/push/subscriptions', {
        endpoint: 'https://push.example/device',
        keys: bad,
      })
      expect(refused.statusCode, refused.body).toBe(422)
      expect(refused.json()).toMatchObject({
        code: 'PUSH_KEYS_INVALID',
        errors: [{ field: `/body/keys/${field}` }],
      })
    }
    const kept = await app.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', await userIdOf(app, pair))
      .execute()
    expect(kept).toEqual([])
  })

  it('a subscription the push service says is gone (410) is forgotten', async () => {
    const pushService = await startReceiver({ statuses: [410] })
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      await v2(pair, 'POST', '/push/subscriptions', {
        endpoint: `${pushService.url}/push/gone`,
        keys: browserKeys().keys,
      })
      await decideKyc(app, pair.access_token, 'APPROVED')
      await drain(app)
      expect(pushService.received).toHaveLength(1)
      const left = await app.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', await userIdOf(app, pair))
        .execute()
      expect(left).toEqual([])
    } finally {
      await pushService.close()
    }
  })

  it.each([
    ['ru', 'Проверка личности\nЛичность подтверждена', 'Открыть'],
    ['id', 'Verifikasi identitas\nAnda sudah terverifikasi', 'Buka'],
    ['ar', 'التحقق من الهوية\nتم التحقق من هويتك', 'فتح'],
  ] as const)(
    'a person from the Mini App whose language is %s gets a bot message in it, with a button to the screen',
    async (language, text, button) => {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const userId = await userIdOf(app, pair)
      const chatId = await joinTelegram(app, userId)
      const chosen = await v2(pair, 'PATCH', '/user/user-data', { language })
      expect(chosen.statusCode, chosen.body).toBe(200)
      await decideKyc(app, pair.access_token, 'APPROVED')
      await drain(app)
      const outbox = await app.inject({
        method: 'GET',
        url: `/api/sandbox/outbox/telegram?chat_id=${chatId}`,
      })
      expect(outbox.statusCode, outbox.body).toBe(200)
      const [message] = outbox.json<{ data: BotMessage[] }>().data
      expect(message).toMatchObject({
        chat_id: chatId,
        text,
        button_text: button,
        button_url: 'http://localhost:8080/verify',
      })
    },
  )

  it('muted kinds reach neither push nor Telegram, but still the notification centre', async () => {
    const pushService = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const userId = await userIdOf(app, pair)
      const chatId = await joinTelegram(app, userId)
      await v2(pair, 'POST', '/push/subscriptions', {
        endpoint: `${pushService.url}/push/muted`,
        keys: browserKeys().keys,
      })
      // The device added is told whatever is muted; what follows is the muted kind alone.
      await drain(app)
      pushService.received.length = 0
      const told = async () =>
        (
          await app.inject({ method: 'GET', url: `/api/sandbox/outbox/telegram?chat_id=${chatId}` })
        ).json<{ data: unknown[] }>().data
      const toldBefore = (await told()).length
      const saved = await v2(pair, 'PUT', '/notifications/preferences', {
        muted: ['kyc.status_changed'],
      })
      expect(saved.json()).toEqual({ muted: ['kyc.status_changed'] })
      await decideKyc(app, pair.access_token, 'APPROVED')
      await drain(app)
      expect(pushService.received).toHaveLength(0)
      expect(await told()).toHaveLength(toldBefore)
      const centre = await v2(pair, 'GET', '/notifications')
      expect(centre.json<{ data: { kind: string }[] }>().data.map((item) => item.kind)).toEqual([
        'kyc.status_changed',
        'security.push_subscription_added',
      ])
    } finally {
      await pushService.close()
    }
  })

  it('`npm run tenant -- webhooks add` registers a tenant endpoint that hears every person of the tenant', async () => {
    const receiver = await startReceiver()
    const out: string[] = []
    const err: string[] = []
    const open = async () => ({ db: app.db, close: async () => {} })
    const output = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
    try {
      const code = await runTenantCli(
        [
          'webhooks',
          'add',
          DEMO_TENANT_ID,
          '--url',
          `${receiver.url}/tenant`,
          '--events',
          'kyc.status_changed',
        ],
        open,
        output,
      )
      expect(code, err.join('\n')).toBe(0)
      const added = JSON.parse(out[0]!) as { id: string; secret: string; event_kinds: string[] }
      expect(added.secret).toMatch(/^whsec_/)
      expect(added.event_kinds).toEqual(['kyc.status_changed'])
      const someone = await signUp(app, { kyc: false, stepUp: true })
      await decideKyc(app, someone.access_token, 'APPROVED')
      await drain(app)
      expect(receiver.received.map((request) => request.path)).toEqual(['/tenant'])

      expect(
        await runTenantCli(['webhooks', 'add', DEMO_TENANT_ID, '--events', 'nope'], open, output),
      ).toBe(2)
      expect(
        await runTenantCli(['webhooks', 'remove', DEMO_TENANT_ID, added.id], open, output),
      ).toBe(0)
      expect(
        await runTenantCli(['webhooks', 'remove', DEMO_TENANT_ID, added.id], open, output),
      ).toBe(1)
      expect(err.at(-1)).toBe('No such webhook endpoint.')
    } finally {
      await receiver.close()
    }
  })
})

describeServer('events: the real Telegram adapter in the app', () => {
  it('with TELEGRAM_API_URL set, bot messages go to that Bot API with the token', async () => {
    const bot = await startReceiver({
      answer: () => ({ status: 200, body: '{"ok":true,"result":{}}' }),
    })
    const app = await createTestApp({
      ...DISPATCH,
      TELEGRAM_BOT_TOKEN: '555:test-token',
      TELEGRAM_API_URL: bot.url,
      PUBLIC_URL: 'https://wallet.example',
    })
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const userId = await userIdOf(app, pair)
      await app.db
        .updateTable('users')
        .set({ telegram_id: '4242' })
        .where('id', '=', userId)
        .execute()
      await decideKyc(app, pair.access_token, 'APPROVED')
      await drain(app)
      expect(bot.received.map((request) => request.path)).toEqual([
        '/bot555:test-token/sendMessage',
      ])
      expect(JSON.parse(bot.received[0]!.body)).toMatchObject({
        chat_id: '4242',
        reply_markup: {
          inline_keyboard: [[{ web_app: { url: 'https://wallet.example/verify' } }]],
        },
      })
    } finally {
      await app.close()
      await bot.close()
    }
  })
})
