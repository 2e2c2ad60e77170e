import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import { byChannel, type MessagingProvider } from '../providers/messaging/messaging.ts'
import { SandboxMessaging } from '../providers/messaging/sandbox.ts'
import { SmtpMessaging } from '../providers/messaging/smtp.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends one-time codes by e-mail and SMS. */
    messaging: MessagingProvider
  }
}

/**
 * Picks the messaging provider from the config: with SMTP_URL, e-mail goes
 * through SMTP; everything else (all of it without SMTP_URL, and SMS always —
 * there is no SMS gateway adapter yet) goes to the sandbox outbox.
 */
export default fp(
  async function messaging(app: FastifyInstance, opts: { config: Config }) {
    const { smtpUrl, mailFrom } = opts.config
    const sandbox = new SandboxMessaging(app.db)
    const provider = byChannel({
      email: smtpUrl ? new SmtpMessaging({ url: smtpUrl, from: mailFrom }) : sandbox,
      sms: sandbox,
    })
    app.addHook('onClose', () => provider.close?.())
    app.decorate('messaging', {
      async send(message) {
        try {
          await provider.send(message)
        } catch (error) {
          // The channel, not the recipient (personal data); the gateway's reason is in err.
          app.log.warn({ err: error, channel: message.channel }, 'message not delivered')
          throw error
        }
      },
    } satisfies MessagingProvider)
    app.log.info(
      { email: smtpUrl ? 'smtp' : 'sandbox', sms: 'sandbox' },
      'messaging providers chosen',
    )
  },
  { name: 'messaging', dependencies: ['db'] },
)
