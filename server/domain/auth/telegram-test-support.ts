import { randomBytes, randomInt } from 'node:crypto'
import { sign, signData } from '@telegram-apps/init-data-node'
import type { TelegramUser } from '../../../contract/telegram.ts'

/**
 * Init data as a Mini App receives it, signed with the library's own `sign`
 * the way Telegram signs it. For tests only.
 */

/** Shaped like a real token ("<bot id>:<secret>"); tests pass it as TELEGRAM_BOT_TOKEN. */
export const TEST_BOT_TOKEN = '7000000001:AAE-test-token-for-signing-init-data'

/** A fresh Telegram user id per call: tests share their file's app and database. */
export const uniqueTelegramId = () => randomInt(1, 2 ** 47)

export const launchUser = (overrides: Partial<TelegramUser> = {}): TelegramUser => ({
  id: uniqueTelegramId(),
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada_l',
  language_code: 'en',
  is_premium: false,
  photo_url: 'https://t.me/i/userpic/320/ada_l.svg',
  ...overrides,
})

export interface InitDataOptions {
  user?: TelegramUser | null
  /** When Telegram signed it; now by default. */
  authDate?: Date
  botToken?: string
}

/**
 * Signed launch data. Each call is a new launch (its own `query_id`), as each
 * opening of the Mini App is: launch data signs in once.
 */
export function signedInitData(options: InitDataOptions = {}): string {
  const user = options.user === undefined ? launchUser() : options.user
  return sign(
    { query_id: randomBytes(18).toString('base64url'), ...(user && { user }) },
    options.botToken ?? TEST_BOT_TOKEN,
    options.authDate ?? new Date(),
  )
}

/**
 * What a Telegram client before Bot API 8.0 sends: the same init data without
 * the `signature` field, its hash over the remaining fields.
 */
export function withoutSignature(initData: string, botToken = TEST_BOT_TOKEN): string {
  const params = new URLSearchParams(initData)
  params.delete('signature')
  params.delete('hash')
  const pairs = [...params.entries()].map(([k, v]) => `${k}=${v}`).sort()
  params.set('hash', signData(pairs.join('\n'), botToken))
  return params.toString()
}

/** The same init data with one field set to another value; the hash is left as it was. */
export function tampered(initData: string, key: string, value: string): string {
  const params = new URLSearchParams(initData)
  params.set(key, value)
  return params.toString()
}

/** The same init data with one field of its launch user changed. */
export function withUserField(initData: string, field: keyof TelegramUser, value: unknown) {
  const user = JSON.parse(new URLSearchParams(initData).get('user') ?? '{}')
  return tampered(initData, 'user', JSON.stringify({ ...user, [field]: value }))
}
