import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { BotMessage } from '../../../contract/events.ts'
import type { DB } from '../../infra/db/schema.ts'
import { MessageNotDeliveredError } from './messaging.ts'

/** One bot message: text, and a button that opens the Mini App at a screen. */
export interface BotNotification {
  tenantId: string
  /** A private chat with the bot: the person's Telegram user id. */
  chatId: string
  text: string
  button: { text: string; url: string }
  /**
   * The way out of an alert that can mean theft (issue 30): a second button
   * whose tap sends `callbackData` (a one-time lockdown token) back to the bot.
   */
  lockdown?: { text: string; callbackData: string }
}

/**
 * Sends bot messages (the Telegram side of the messaging providers). The
 * sandbox records them; the Bot API adapter calls `sendMessage`.
 */
export interface BotMessenger {
  /** @throws MessageNotDeliveredError when Telegram refuses it or cannot be reached */
  sendMessage(message: BotNotification): Promise<void>
}

/** The Bot API: `POST {api}/bot{token}/sendMessage` with an inline `web_app` button. */
export class TelegramBotApi implements BotMessenger {
  constructor(private readonly options: { apiUrl: string; token: string; timeoutMs?: number }) {}

  async sendMessage(message: BotNotification): Promise<void> {
    let response: Response
    try {
      response = await fetch(`${this.options.apiUrl}/bot${this.options.token}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          chat_id: message.chatId,
          text: message.text,
          reply_markup: {
            inline_keyboard: [
              [{ text: message.button.text, web_app: { url: message.button.url } }],
              ...(message.lockdown
                ? [[{ text: message.lockdown.text, callback_data: message.lockdown.callbackData }]]
                : []),
            ],
          },
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      })
    } catch (error) {
      throw new MessageNotDeliveredError('The Telegram Bot API could not be reached.', {
        cause: error,
      })
    }
    const answer = (await response.json().catch(() => undefined)) as
      | { ok?: boolean; description?: string }
      | undefined
    if (!response.ok || answer?.ok !== true) {
      // The token is in the URL, never in the error: only Telegram's own description.
      throw new MessageNotDeliveredError(
        `Telegram refused the message (${response.status}${answer?.description ? `: ${answer.description}` : ''}).`,
      )
    }
  }
}

/** A chat id the sandbox bot refuses, as Telegram refuses a person who blocked the bot. */
export const SANDBOX_BLOCKED_CHAT_SUFFIX = '0000'

/**
 * The offline stand-in for the Bot API: records each message in
 * sandbox_bot_messages (GET /api/sandbox/outbox/telegram) after a short delay,
 * and refuses chats ending in SANDBOX_BLOCKED_CHAT_SUFFIX ("bot was blocked").
 */
export class SandboxBot implements BotMessenger {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: { delayMs: number } = { delayMs: 15 },
  ) {}

  async sendMessage(message: BotNotification): Promise<void> {
    await sleep(this.options.delayMs)
    if (message.chatId.endsWith(SANDBOX_BLOCKED_CHAT_SUFFIX)) {
      throw new MessageNotDeliveredError('Forbidden: bot was blocked by the user (sandbox).')
    }
    await this.db
      .insertInto('sandbox_bot_messages')
      .values({
        id: uuidv7(),
        tenant_id: message.tenantId,
        chat_id: message.chatId,
        text: message.text,
        button_text: message.button.text,
        button_url: message.button.url,
        lock_button_text: message.lockdown?.text ?? null,
        lock_callback_data: message.lockdown?.callbackData ?? null,
      })
      .execute()
  }

  /** The bot's own words in a chat, without buttons: its answer to a tap. */
  async reply(message: { tenantId: string; chatId: string; text: string }): Promise<void> {
    await this.db
      .insertInto('sandbox_bot_messages')
      .values({
        id: uuidv7(),
        tenant_id: message.tenantId,
        chat_id: message.chatId,
        text: message.text,
        button_text: null,
        button_url: null,
      })
      .execute()
  }
}

/** The sandbox bot's messages, newest first. */
export async function listBotMessages(
  db: Kysely<DB>,
  filter: { chatId?: string | undefined; tenantId?: string | undefined; limit: number },
): Promise<BotMessage[]> {
  let query = db
    .selectFrom('sandbox_bot_messages')
    .select([
      'id',
      'chat_id',
      'text',
      'button_text',
      'button_url',
      'lock_button_text',
      'lock_callback_data',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
  if (filter.chatId !== undefined) query = query.where('chat_id', '=', filter.chatId)
  if (filter.tenantId !== undefined) query = query.where('tenant_id', '=', filter.tenantId)
  const rows = await query.execute()
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }))
}
