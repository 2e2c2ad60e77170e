import type { ProblemCode } from '../../contract/problem-codes.ts'
import { ApiError } from '../net/api.ts'
import { formatLocale } from './digits.ts'
import type { MessageKey } from './en.ts'
import type { Translate } from './i18n.tsx'

/**
 * Every problem code the server can answer, and the words a person reads for it.
 * A Record over the contract's union: a new code fails the type check here
 * until it is given its words. Codes only a developer's client, an operator or
 * a proxy meets (malformed requests, unknown tenants, the database down) are
 * worded by their status, on purpose. OTP_INVALID, OTP_BLOCKED, USER_BLOCKED,
 * RATE_LIMITED and EMAIL_TAKEN say more when the answer tells more (below).
 */
const PROBLEM_WORDS: Record<ProblemCode, MessageKey> = {
  CANNOT_PAY_YOURSELF: 'error.CANNOT_PAY_YOURSELF',
  RECIPIENT_NOT_FOUND: 'error.RECIPIENT_NOT_FOUND',
  TRANSFER_NOT_FOUND: 'error.TRANSFER_NOT_FOUND',
  PAYMENT_REQUEST_NOT_FOUND: 'error.PAYMENT_REQUEST_NOT_FOUND',
  REQUEST_ALREADY_PAID: 'error.REQUEST_ALREADY_PAID',
  REQUEST_NOT_PAYABLE: 'error.REQUEST_NOT_PAYABLE',
  SCHEDULE_INVALID: 'error.SCHEDULE_INVALID',
  SCHEDULE_NOT_FOUND: 'error.SCHEDULE_NOT_FOUND',
  NOTIFICATION_KIND_NOT_MUTABLE: 'error.NOTIFICATION_KIND_NOT_MUTABLE',
  API_KEY_ALLOW_LIST_REQUIRED: 'error.API_KEY_ALLOW_LIST_REQUIRED',
  NOT_IN_PROOF: 'error.NOT_IN_PROOF',
  PROOF_NOT_PUBLISHED: 'error.PROOF_NOT_PUBLISHED',
  PROOF_KEY_NOT_FOUND: 'error.PROOF_KEY_NOT_FOUND',
  TELEGRAM_INIT_DATA_USED: 'error.TELEGRAM_INIT_DATA_USED',
  PUSH_KEYS_INVALID: 'error.PUSH_KEYS_INVALID',
  PASSWORD_UNCHANGED: 'error.PASSWORD_UNCHANGED',
  PASSKEY_USER_NOT_VERIFIED: 'error.PASSKEY_USER_NOT_VERIFIED',
  CURRENT_PASSWORD_INVALID: 'error.CURRENT_PASSWORD_INVALID',
  ACCOUNT_UNAVAILABLE: 'error.ACCOUNT_UNAVAILABLE',
  ACTIVATION_CODE_INVALID: 'error.ACTIVATION_CODE_INVALID',
  ACTIVITY_NOT_FOUND: 'error.ACTIVITY_NOT_FOUND',
  ADDRESS_INVALID: 'error.ADDRESS_INVALID',
  AMOUNT_EXCEEDS_AUTHORIZATION: 'error.AMOUNT_EXCEEDS_AUTHORIZATION',
  AMOUNT_EXCEEDS_REFUNDABLE: 'error.AMOUNT_EXCEEDS_REFUNDABLE',
  AMOUNT_EXCEEDS_DISPUTABLE: 'error.AMOUNT_EXCEEDS_DISPUTABLE',
  AMOUNT_MISMATCH: 'error.AMOUNT_MISMATCH',
  AMOUNT_NOT_AUTHORIZED: 'error.AMOUNT_NOT_AUTHORIZED',
  AMOUNT_TOO_LARGE: 'error.AMOUNT_TOO_LARGE',
  AMOUNT_TOO_SMALL: 'error.AMOUNT_TOO_SMALL',
  API_KEY_INVALID: 'error.API_KEY_INVALID',
  API_KEY_LIMIT: 'error.API_KEY_LIMIT',
  API_KEY_NOT_FOUND: 'error.API_KEY_NOT_FOUND',
  API_KEY_RATE_LIMITED: 'error.API_KEY_RATE_LIMITED',
  API_KEY_ROLE_FORBIDDEN: 'error.API_KEY_ROLE_FORBIDDEN',
  APP_ENV_INVALID: 'error.status.400',
  AUTHORIZATION_NOT_FOUND: 'error.AUTHORIZATION_NOT_FOUND',
  AUTHORIZATION_NOT_OPEN: 'error.AUTHORIZATION_NOT_OPEN',
  AUTHORIZATION_NOT_SETTLED: 'error.AUTHORIZATION_NOT_SETTLED',
  AUTHORIZATION_REQUIRED: 'error.status.422',
  BAD_REQUEST: 'error.status.400',
  BAD_URL: 'error.status.400',
  CARD_NOT_DELIVERED: 'error.CARD_NOT_DELIVERED',
  CARD_NOT_FOUND: 'error.CARD_NOT_FOUND',
  CARD_STATUS_CONFLICT: 'error.CARD_STATUS_CONFLICT',
  CHAIN_MISMATCH: 'error.CHAIN_MISMATCH',
  COUNTERPARTY_NOT_FOUND: 'error.COUNTERPARTY_NOT_FOUND',
  COUNTRY_NOT_SUPPORTED: 'error.COUNTRY_NOT_SUPPORTED',
  CTP_BODY_TOO_LARGE: 'error.status.400',
  CTP_EMPTY_JSON_BODY: 'error.status.400',
  CTP_INVALID_CONTENT_LENGTH: 'error.status.400',
  CTP_INVALID_MEDIA_TYPE: 'error.status.400',
  CURRENCY_MISMATCH: 'error.CURRENCY_MISMATCH',
  CURRENCY_NOT_ALLOWED: 'error.CURRENCY_NOT_ALLOWED',
  CURRENCY_NOT_FOUND: 'error.CURRENCY_NOT_FOUND',
  CURRENCY_NOT_ON_CHAIN: 'error.CURRENCY_NOT_ON_CHAIN',
  DATABASE_UNREACHABLE: 'error.status.503',
  DELIVERY_ADDRESS_NOT_ALLOWED: 'error.DELIVERY_ADDRESS_NOT_ALLOWED',
  DELIVERY_ADDRESS_REQUIRED: 'error.DELIVERY_ADDRESS_REQUIRED',
  DESTINATION_CHANGED: 'error.DESTINATION_CHANGED',
  DESTINATION_INVALID: 'error.DESTINATION_INVALID',
  DESTINATION_IN_USE: 'error.DESTINATION_IN_USE',
  DESTINATION_NOT_FOUND: 'error.DESTINATION_NOT_FOUND',
  DESTINATION_TYPE_MISMATCH: 'error.DESTINATION_TYPE_MISMATCH',
  DIRECTION_NOT_OFFERED: 'error.DIRECTION_NOT_OFFERED',
  EMAIL_TAKEN: 'error.EMAIL_TAKEN',
  FIAT_ACCOUNT_NOT_ACTIVE: 'error.FIAT_ACCOUNT_NOT_ACTIVE',
  FIAT_ACCOUNT_NOT_FOUND: 'error.FIAT_ACCOUNT_NOT_FOUND',
  FIAT_ACCOUNT_TYPE_MISMATCH: 'error.FIAT_ACCOUNT_TYPE_MISMATCH',
  FIAT_ACCOUNT_UNAVAILABLE: 'error.FIAT_ACCOUNT_UNAVAILABLE',
  FORM_FACTOR_UNAVAILABLE: 'error.FORM_FACTOR_UNAVAILABLE',
  HEADERS_TOO_LARGE: 'error.status.400',
  IBAN_UNKNOWN: 'error.IBAN_UNKNOWN',
  IDEMPOTENCY_CONFLICT: 'error.IDEMPOTENCY_CONFLICT',
  INSUFFICIENT_FUNDS: 'error.INSUFFICIENT_FUNDS',
  INTERNAL: 'error.status.500',
  INVALID_AMOUNT: 'error.INVALID_AMOUNT',
  INVALID_CREDENTIALS: 'error.INVALID_CREDENTIALS',
  INVALID_DELIVERY_ADDRESS: 'error.INVALID_DELIVERY_ADDRESS',
  INVALID_LIMITS: 'error.INVALID_LIMITS',
  INVALID_REFRESH_TOKEN: 'error.INVALID_REFRESH_TOKEN',
  INVALID_SETTINGS: 'error.status.422',
  INVALID_TX_HASH: 'error.INVALID_TX_HASH',
  KYC_ALREADY_APPROVED: 'error.KYC_ALREADY_APPROVED',
  KYC_FINAL: 'error.KYC_FINAL',
  KYC_IN_REVIEW: 'error.KYC_IN_REVIEW',
  KYC_PROVIDER_MISMATCH: 'error.KYC_PROVIDER_MISMATCH',
  KYC_PROVIDER_UNAVAILABLE: 'error.KYC_PROVIDER_UNAVAILABLE',
  KYC_REQUIRED: 'error.KYC_REQUIRED',
  MALFORMED_JSON: 'error.status.400',
  MERCHANT_REQUIRED: 'error.MERCHANT_REQUIRED',
  MESSAGE_NOT_DELIVERED: 'error.MESSAGE_NOT_DELIVERED',
  NOT_FOUND: 'error.status.404',
  NO_CONTACT: 'error.NO_CONTACT',
  NO_DEPOSIT_ADDRESS: 'error.NO_DEPOSIT_ADDRESS',
  ORDER_NOT_AWAITING_TRANSFER: 'error.ORDER_NOT_AWAITING_TRANSFER',
  ORDER_NOT_CANCELABLE: 'error.ORDER_NOT_CANCELABLE',
  ORDER_NOT_FOUND: 'error.ORDER_NOT_FOUND',
  OTP_BLOCKED: 'error.OTP_BLOCKED',
  OTP_EXPIRED: 'error.OTP_EXPIRED',
  OTP_INVALID: 'error.OTP_INVALID',
  PASSKEY_CHALLENGE_INVALID: 'error.PASSKEY_CHALLENGE_INVALID',
  PASSKEY_EXISTS: 'error.PASSKEY_EXISTS',
  PASSKEY_INVALID: 'error.PASSKEY_INVALID',
  PASSKEY_NOT_FOUND: 'error.PASSKEY_NOT_FOUND',
  PASSWORD_TOO_WEAK: 'error.PASSWORD_TOO_WEAK',
  PHONE_TAKEN: 'error.PHONE_TAKEN',
  PRODUCT_DISABLED: 'error.PRODUCT_DISABLED',
  PROGRAM_ARCHIVED: 'error.PROGRAM_ARCHIVED',
  PROGRAM_NOT_FOUND: 'error.PROGRAM_NOT_FOUND',
  PROGRAM_NOT_PREPAID: 'error.PROGRAM_NOT_PREPAID',
  PUSH_ENDPOINT_REFUSED: 'error.PUSH_ENDPOINT_REFUSED',
  QUOTE_EXPIRED: 'error.QUOTE_EXPIRED',
  QUOTE_MISMATCH: 'error.QUOTE_MISMATCH',
  QUOTE_NOT_FOUND: 'error.QUOTE_NOT_FOUND',
  QUOTE_USED: 'error.QUOTE_USED',
  RATES_UNAVAILABLE: 'error.RATES_UNAVAILABLE',
  RATE_LIMITED: 'error.RATE_LIMITED',
  REFERENCE_UNKNOWN: 'error.REFERENCE_UNKNOWN',
  REFRESH_TOKEN_REUSED: 'error.REFRESH_TOKEN_REUSED',
  REQUEST_TIMEOUT: 'error.status.400',
  SCHEMA_BEHIND: 'error.status.503',
  SECRET_KEY_INVALID: 'error.SECRET_KEY_INVALID',
  SECRET_KEY_REPLAYED: 'error.SECRET_KEY_REPLAYED',
  SECRET_KEY_STALE: 'error.SECRET_KEY_STALE',
  SESSION_NOT_FOUND: 'error.SESSION_NOT_FOUND',
  SESSION_REQUIRED: 'error.SESSION_REQUIRED',
  SHUTTING_DOWN: 'error.SHUTTING_DOWN',
  STATEMENT_NOT_FOUND: 'error.STATEMENT_NOT_FOUND',
  STATEMENT_NOT_READY: 'error.STATEMENT_NOT_READY',
  STEP_UP_REQUIRED: 'error.STEP_UP_REQUIRED',
  TARGET_IS_SOURCE: 'error.TARGET_IS_SOURCE',
  TELEGRAM_BIOMETRICS_INVALID: 'error.TELEGRAM_BIOMETRICS_INVALID',
  TELEGRAM_INIT_DATA_INVALID: 'error.TELEGRAM_INIT_DATA_INVALID',
  TELEGRAM_NOT_CONFIGURED: 'error.TELEGRAM_NOT_CONFIGURED',
  TELEGRAM_USER_EXISTS: 'error.TELEGRAM_USER_EXISTS',
  TENANT_EXISTS: 'error.status.409',
  TENANT_INVALID: 'error.status.400',
  TENANT_NOT_FOUND: 'error.status.404',
  TENANT_REQUIRED: 'error.status.400',
  THREE_DS_NOT_APPLICABLE: 'error.THREE_DS_NOT_APPLICABLE',
  TRANSACTION_NOT_FOUND: 'error.TRANSACTION_NOT_FOUND',
  TRANSFER_ALREADY_RECEIVED: 'error.TRANSFER_ALREADY_RECEIVED',
  UNAUTHORIZED: 'error.UNAUTHORIZED',
  UNKNOWN_ADDRESS: 'error.UNKNOWN_ADDRESS',
  UNKNOWN_CARD: 'error.UNKNOWN_CARD',
  URI_TOO_LONG: 'error.status.400',
  USER_BLOCKED: 'error.USER_BLOCKED',
  USER_NOT_FOUND: 'error.USER_NOT_FOUND',
  VALIDATION_FAILED: 'error.VALIDATION_FAILED',
  WALLET_NOT_FOUND: 'error.WALLET_NOT_FOUND',
  WALLET_TYPE_NOT_OFFERED: 'error.WALLET_TYPE_NOT_OFFERED',
  WEBHOOK_DELIVERY_NOT_FOUND: 'error.WEBHOOK_DELIVERY_NOT_FOUND',
  WEBHOOK_ENDPOINT_LIMIT: 'error.WEBHOOK_ENDPOINT_LIMIT',
  WEBHOOK_ENDPOINT_NOT_FOUND: 'error.WEBHOOK_ENDPOINT_NOT_FOUND',
  WEBHOOK_SIGNATURE_INVALID: 'error.status.400',
  WEBHOOK_URL_REFUSED: 'error.WEBHOOK_URL_REFUSED',
  CHANNEL_NOT_APPLICABLE: 'error.CHANNEL_NOT_APPLICABLE',
  INVALID_CONTROLS: 'error.INVALID_CONTROLS',
  INVALID_AUTO_TOP_UP: 'error.INVALID_AUTO_TOP_UP',
  LOCKDOWN_ACTIVE: 'error.LOCKDOWN_ACTIVE',
  LOCKDOWN_LINK_INVALID: 'error.LOCKDOWN_LINK_INVALID',
  LOCKDOWN_NOT_ACTIVE: 'error.LOCKDOWN_NOT_ACTIVE',
  LOCKDOWN_TOO_EARLY: 'error.LOCKDOWN_TOO_EARLY',
  DISPUTE_DECIDED: 'error.DISPUTE_DECIDED',
  DISPUTE_EXISTS: 'error.DISPUTE_EXISTS',
  DISPUTE_NOT_FOUND: 'error.DISPUTE_NOT_FOUND',
}

const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEM_WORDS, code)

/** A problem code's words outside a failed call (why a schedule's run failed); undefined for one we do not know. */
export const problemWords = (code: string, t: Translate): string | undefined =>
  isProblemCode(code) ? t(PROBLEM_WORDS[code]) : undefined

/** docs/product.md §8 and the statuses a proxy or gateway may add; other 4xx read as 400, other 5xx as 500. */
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
      return t('error.OTP_INVALID_left', { count })
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
  if (error.code && isProblemCode(error.code)) return t(PROBLEM_WORDS[error.code])
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

/** "14:05" today, "3 Jun 2026, 14:05" on another day, in the person's language and time zone. */
export function formatMoment(iso: string, language: string, now = Date.now()): string | undefined {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return undefined
  const sameDay = new Date(now).toDateString() === at.toDateString()
  return new Intl.DateTimeFormat(
    formatLocale(language),
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
