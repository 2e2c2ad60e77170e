import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../../config.ts'
import {
  type BotMessenger,
  SandboxBot,
  TelegramBotApi,
} from '../../providers/messaging/telegram-bot.ts'
import { LockdownLinks } from '../lockdown/links.ts'
import { DELIVER_JOB, DISPATCH_JOB, EventDispatcher } from './dispatcher.ts'
import { Notifications } from './notifications.ts'
import { loadOrCreateVapidKeys, WebPushSender } from './push.ts'
import { WebhookEndpoints } from './webhooks.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Issue 20: the event pipeline's services (the outbox writer is outbox.ts's emitEvent). */
    events: {
      notifications: Notifications
      endpoints: WebhookEndpoints
      push: WebPushSender
      dispatcher: EventDispatcher
    }
  }
}

/**
 * The event pipeline: picks the web push keys and the Telegram bot provider,
 * and registers the dispatch and deliver jobs on the job runner.
 */
export default fp(
  async function events(app: FastifyInstance, opts: { config: Config }) {
    const { events: settings, dataDir, sandbox, telegram } = opts.config
    const push = new WebPushSender(
      settings.vapid ?? loadOrCreateVapidKeys(dataDir),
      settings.vapidSubject,
      { sandbox },
    )
    const bot: BotMessenger =
      settings.telegramBot === 'api' && telegram.botToken
        ? new TelegramBotApi({ apiUrl: settings.telegramApiUrl, token: telegram.botToken })
        : new SandboxBot(app.db)
    const dispatcher = new EventDispatcher({
      sandbox,
      publicUrl: settings.publicUrl,
      push,
      bot,
      mail: app.providers.messaging,
      lockdownLinks: new LockdownLinks(opts.config.secrets.refreshKey),
    })
    if (settings.dispatch) {
      app.jobs.registerBatch(DISPATCH_JOB, dispatcher.dispatch)
      app.jobs.register(DELIVER_JOB, dispatcher.deliver)
    }
    app.decorate('events', {
      notifications: new Notifications(app.db, { sandbox }),
      endpoints: new WebhookEndpoints(app.db, { sandbox }),
      push,
      dispatcher,
    })
    app.log.info({ telegram_bot: settings.telegramBot }, 'event channels chosen')
  },
  { name: 'events', dependencies: ['db', 'jobs', 'providers'] },
)
