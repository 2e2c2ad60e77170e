import type { OtpChannel } from '../../../contract/otp.ts'
import type { OutboxPurpose } from '../../../contract/sandbox.ts'
import type { USER_LANGUAGES } from '../../../contract/user.ts'

/** One message — a one-time code, or a security notice — ready to go: the text is composed. */
export interface OutgoingMessage {
  tenantId: string
  channel: OtpChannel
  /** An e-mail address (lower-cased) or a phone as digits. */
  to: string
  purpose: OutboxPurpose
  /**
   * The code itself, for providers that record it (the sandbox); real ones send
   * `body`. Null for a security notice.
   */
  code: string | null
  language: (typeof USER_LANGUAGES)[number]
  /** E-mail only. */
  subject?: string
  body: string
}

/**
 * Delivers codes (and security notices) by e-mail or SMS. One interface; the
 * sandbox and real adapters sit behind it.
 */
export interface MessagingProvider {
  /**
   * Resolves once the message is accepted for delivery.
   * @throws MessageNotDeliveredError when the provider refuses it or cannot be reached
   */
  send(message: OutgoingMessage): Promise<void>
  /** Releases connections; called when the app closes. */
  close?(): Promise<void>
}

/** The provider did not take the message; the caller must leave nothing usable behind. */
export class MessageNotDeliveredError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MessageNotDeliveredError'
  }
}

/** One provider per channel behind the one interface (e.g. SMTP for e-mail, the sandbox for SMS). */
export function byChannel(providers: Record<OtpChannel, MessagingProvider>): MessagingProvider {
  const distinct = [...new Set(Object.values(providers))]
  return {
    send: (message) => providers[message.channel].send(message),
    close: async () => {
      await Promise.all(distinct.map((provider) => provider.close?.()))
    },
  }
}
