import nodemailer, { type Transporter } from 'nodemailer'
import {
  MessageNotDeliveredError,
  type MessagingProvider,
  type OutgoingMessage,
} from './messaging.ts'

/**
 * Real e-mail through an SMTP server (SMTP_URL, e.g. smtps://user:pass@host:465).
 * The answer to the person waits for the server's acceptance, so the timeouts
 * are seconds, not nodemailer's minutes.
 */
export class SmtpMessaging implements MessagingProvider {
  readonly #transport: Transporter
  readonly #from: string

  constructor(options: { url: string; from: string; timeoutMs?: number }) {
    const timeout = options.timeoutMs ?? 15_000
    this.#transport = nodemailer.createTransport({
      url: options.url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    })
    this.#from = options.from
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== 'email') {
      throw new MessageNotDeliveredError('SMTP carries e-mail only.')
    }
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.body,
        headers: { 'Content-Language': message.language },
      })
    } catch (error) {
      throw new MessageNotDeliveredError('The SMTP server did not accept the message.', {
        cause: error,
      })
    }
  }

  async close(): Promise<void> {
    this.#transport.close()
  }
}
