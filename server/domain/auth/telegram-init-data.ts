import { timingSafeEqual } from 'node:crypto'
import { Value } from '@sinclair/typebox/value'
import { parse, signData } from '@telegram-apps/init-data-node'
import { languageOfTag } from '../../../contract/languages.ts'
import { normaliseName } from '../../../contract/names.ts'
import { TelegramUser } from '../../../contract/telegram.ts'

/**
 * Checking the init data a Mini App was launched with
 * (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app).
 *
 * @telegram-apps/init-data-node computes the signature (its `signData`:
 * HMAC-SHA256 keyed by HMAC-SHA256("WebAppData", bot token)) and parses the
 * fields (`parse`). Its own `validate` is not used: it compares the two hashes
 * with `!==` (dist/entries/shared-*.js, `processSign`), which is not
 * constant-time. We build the data-check string, let the library sign it, and
 * compare with crypto.timingSafeEqual. The age check takes our clock, so it is
 * testable, and runs after the signature: a forged auth_date is never trusted.
 */

export type InitDataVerdict =
  /** `hash`: the data's signature, which names it whatever the order of its fields. */
  | { ok: true; user: TelegramUser; authDate: Date; hash: string }
  | { ok: false; reason: 'malformed' | 'signature' | 'stale' | 'no_user' }

const HASH = /^[0-9a-f]{64}$/i

export function verifyInitData(
  raw: string,
  botToken: string,
  options: { maxAgeSeconds: number; now: Date },
): InitDataVerdict {
  const params = new URLSearchParams(raw)
  const hash = params.get('hash')
  if (!hash || !HASH.test(hash) || params.getAll('hash').length > 1) {
    return { ok: false, reason: 'malformed' }
  }

  // Every field but the hash, as `key=value`, sorted, joined by line feeds.
  const pairs: string[] = []
  params.forEach((value, key) => {
    if (key !== 'hash') pairs.push(`${key}=${value}`)
  })
  const expected = Buffer.from(signData(pairs.sort().join('\n'), botToken), 'hex')
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) {
    return { ok: false, reason: 'signature' }
  }

  const authDate = Number(params.get('auth_date'))
  if (!Number.isSafeInteger(authDate) || authDate <= 0) return { ok: false, reason: 'malformed' }
  if (options.now.getTime() - authDate * 1000 > options.maxAgeSeconds * 1000) {
    return { ok: false, reason: 'stale' }
  }

  // `parse` insists on `signature` (added in Bot API 8.0, Ed25519 for third
  // parties), which the HMAC check above does not need; older clients omit it.
  if (!params.has('signature')) params.set('signature', '')
  let user: unknown
  try {
    user = parse(params).user
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  if (user === undefined) return { ok: false, reason: 'no_user' }
  // The library's schema admits any extra field; ours names the ones we keep.
  if (!Value.Check(TelegramUser, user)) return { ok: false, reason: 'malformed' }
  return { ok: true, user, authDate: new Date(authDate * 1000), hash: hash.toLowerCase() }
}

/** The profile fields a Telegram account starts with (docs/product.md §3, the launch user). */
export function profileFromLaunchUser(user: TelegramUser) {
  // Telegram sends an IETF tag ("en", "ru", "pt-br"); we keep it when we speak it.
  const language = languageOfTag(user.language_code) ?? null
  return {
    first_name: normaliseName(user.first_name) || null,
    last_name: (user.last_name && normaliseName(user.last_name)) || null,
    username: user.username ?? null,
    language,
    is_premium: user.is_premium === true,
    photo_url: user.photo_url ?? null,
  }
}
