import { ApiError } from '../net/api.ts'
import type { MessageKey } from './en.ts'
import type { Translate } from './i18n.tsx'

/** Problem codes with a sentence of their own; anything else is worded by its status. */
const KNOWN_CODES = new Set<string>([
  'INVALID_CREDENTIALS',
  'EMAIL_TAKEN',
  'PHONE_TAKEN',
  'RATE_LIMITED',
  'VALIDATION_FAILED',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_BLOCKED',
  'USER_BLOCKED',
  'MESSAGE_NOT_DELIVERED',
  'PASSWORD_TOO_WEAK',
  'CURRENT_PASSWORD_INVALID',
  'PASSWORD_UNCHANGED',
  'USER_NOT_FOUND',
  'KYC_REQUIRED',
  'KYC_IN_REVIEW',
  'KYC_ALREADY_APPROVED',
  'KYC_FINAL',
  'KYC_PROVIDER_UNAVAILABLE',
  'KYC_PROVIDER_MISMATCH',
  'API_KEY_LIMIT',
  'PRODUCT_DISABLED',
  'STEP_UP_REQUIRED',
  'PASSKEY_INVALID',
  'PASSKEY_USER_NOT_VERIFIED',
  'PASSKEY_CHALLENGE_INVALID',
  'PASSKEY_EXISTS',
  'PASSKEY_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'NO_CONTACT',
  'TELEGRAM_BIOMETRICS_INVALID',
  'TELEGRAM_INIT_DATA_USED',
])

/** SPEC.md §8 and the statuses a proxy or gateway may add; other 4xx read as 400, other 5xx as 500. */
const STATUSES = [400, 401, 403, 404, 409, 419, 422, 423, 429, 500, 502, 503] as const

export interface Wording {
  /** For times and plurals ("at 14:05", "1 attempt"); English when not given. */
  language?: string
  /** Seconds until a rate limit lifts, as a live countdown has it now; else the answer's own. */
  secondsLeft?: number
  /** The call sent or checked a one-time code: a 429 means "wait for a new code", a 409 a contact in use. */
  about?: 'code'
}

/**
 * What to tell a person about a failed call, in their language: a known
 * problem code, else the status, else a lost connection or a timeout. The
 * server's own `detail` is English and meant for developers: never shown.
 */
export function errorMessage(error: unknown, t: Translate, wording: Wording = {}): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return t('error.timeout')
  // A failed fetch while the browser knows it has no network: say so plainly.
  if (error instanceof TypeError && globalThis.navigator?.onLine === false) {
    return t('error.offline')
  }
  if (error instanceof TypeError) return t('error.network')
  if (!(error instanceof ApiError)) return t('error.generic')

  const language = wording.language ?? 'en'
  const problem = error.problem
  switch (error.code) {
    case 'OTP_INVALID': {
      const count = problem?.attempts_left
      if (count === undefined) return t('error.OTP_INVALID')
      return t(`error.OTP_INVALID_${pluralCategory(language, count)}`, { count })
    }
    case 'OTP_BLOCKED':
    case 'USER_BLOCKED': {
      const time = problem?.blocked_until && formatMoment(problem.blocked_until, language)
      return time ? t(`error.${error.code}_until`, { time }) : t(`error.${error.code}`)
    }
    case 'RATE_LIMITED':
      return rateLimited(wording.secondsLeft ?? error.retryAfter, t, wording.about)
    case 'EMAIL_TAKEN':
      return t(wording.about === 'code' ? 'error.EMAIL_TAKEN_contact' : 'error.EMAIL_TAKEN')
  }
  if (error.code && KNOWN_CODES.has(error.code)) return t(`error.${error.code}` as MessageKey)
  // A 429 without our problem body (a proxy's) still counts down when it says how long.
  if (error.status === 429)
    return rateLimited(wording.secondsLeft ?? error.retryAfter, t, wording.about)
  return t(`error.status.${statusOf(error.status)}`)
}

/** The wording of every step that sends or checks a one-time code: sign-in and contact change. */
export const codeErrorMessage = (error: unknown, t: Translate, wording: Wording = {}) =>
  errorMessage(error, t, { ...wording, about: 'code' })

function rateLimited(seconds: number | undefined, t: Translate, about: Wording['about']): string {
  if (seconds === undefined) return t('error.RATE_LIMITED')
  if (about === 'code') return seconds > 0 ? t('code.resendIn', { seconds }) : t('code.resendNow')
  return seconds > 0 ? t('error.RATE_LIMITED_in', { seconds }) : t('error.RATE_LIMITED_now')
}

function statusOf(status: number): (typeof STATUSES)[number] {
  const known = STATUSES.find((candidate) => candidate === status)
  if (known) return known
  return status >= 500 ? 500 : 400
}

/** The catalogues carry the plural forms Russian needs (one, few, many); others read as "other". */
function pluralCategory(language: string, count: number): 'one' | 'few' | 'many' | 'other' {
  const category = new Intl.PluralRules(language).select(count)
  return category === 'one' || category === 'few' || category === 'many' ? category : 'other'
}

/** "14:05" today, "3 Jun 2026, 14:05" on another day, in the person's language and time zone. */
export function formatMoment(iso: string, language: string, now = Date.now()): string | undefined {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return undefined
  const sameDay = new Date(now).toDateString() === at.toDateString()
  return new Intl.DateTimeFormat(
    language,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  ).format(at)
}

/** Our words for a field the server refused, by its JSON pointer (`errors[].field`). */
const FIELD_MESSAGES: Record<string, MessageKey> = {
  '/body/email': 'error.emailInvalid',
  '/body/password': 'error.field.password',
  '/body/new_password': 'error.field.password',
  '/body/phone': 'error.field.phone',
  '/body/first_name': 'error.field.name',
  '/body/last_name': 'error.field.name',
  '/body/date_of_birth': 'error.field.dateOfBirth',
  '/body/address/country': 'error.field.country',
}

/**
 * The fields a 422 (or a PASSWORD_TOO_WEAK) names, each with a message in the
 * person's language, keyed by pointer ("/body/address/city"). The server's
 * `message` is English and generic, so it is not shown.
 */
export function fieldErrors(error: unknown, t: Translate): Record<string, string> {
  const found: Record<string, string> = {}
  if (!(error instanceof ApiError)) return found
  for (const { field } of error.problem?.errors ?? []) {
    found[field] ??= t(FIELD_MESSAGES[field] ?? 'error.field.invalid')
  }
  return found
}
