import { describe, expect, it } from 'vitest'
import type { Problem } from '../../contract/problem.ts'
import { PROBLEM_CODES, type ProblemCode } from '../../contract/problem-codes.ts'
import { ApiError } from '../net/api.ts'
import { codeErrorMessage, errorMessage, fieldErrors } from './error-message.ts'
import { translator } from './i18n.tsx'

const en = translator('en')
const ru = translator('ru')

const answer = (status: number, code?: ProblemCode, extra: Partial<Problem> = {}) =>
  new ApiError(
    status,
    code ? { type: 'x', title: 'x', status, code, detail: 'English detail', ...extra } : undefined,
  )

describe('every status of docs/product.md §8 has words in both languages', () => {
  it.each([
    [400, 'We could not process this request.', 'Не удалось выполнить запрос.'],
    [401, 'Your session has ended.', 'Сеанс завершён.'],
    [403, 'You do not have access to this.', 'У вас нет доступа'],
    [404, 'We could not find what you were looking for.', 'Не удалось найти'],
    [419, 'The confirmation has expired.', 'Срок подтверждения истёк.'],
    [422, 'Some fields need another look.', 'Проверьте поля формы.'],
    [423, 'Access is blocked for now.', 'Доступ временно заблокирован.'],
    [429, 'Too many attempts.', 'Слишком много попыток.'],
    [500, 'Something went wrong on our side.', 'Сбой на нашей стороне.'],
    [502, 'A service we depend on did not answer.', 'Внешний сервис не ответил.'],
    [503, 'The service is briefly unavailable.', 'Сервис временно недоступен.'],
    [504, 'Something went wrong on our side.', 'Сбой на нашей стороне.'],
    [418, 'We could not process this request.', 'Не удалось выполнить запрос.'],
  ])('%i', (status, inEnglish, inRussian) => {
    // With an unknown code, and with no problem body at all (a proxy's HTML page).
    // A newer server may answer a code this build does not know yet.
    for (const error of [answer(status, 'SOMETHING_NEW' as ProblemCode), answer(status)]) {
      expect(errorMessage(error, en)).toContain(inEnglish)
      expect(errorMessage(error, ru)).toContain(inRussian)
      expect(errorMessage(error, en)).not.toMatch(/\d{3}|English detail/)
    }
  })

  it('a lost connection and a timeout', () => {
    expect(errorMessage(new TypeError('Failed to fetch'), ru)).toBe(
      'Нет связи с сервером. Проверьте интернет и попробуйте снова.',
    )
    expect(errorMessage(new DOMException('timed out', 'TimeoutError'), en)).toBe(
      'The server took too long to answer. Please try again.',
    )
  })
})

describe('every problem code the server can answer has words in both languages', () => {
  /** Met only by a developer's client, an operator or a proxy: worded by the status on purpose. */
  const byStatus = new Set<ProblemCode>([
    'APP_ENV_INVALID',
    'AUTHORIZATION_REQUIRED',
    'BAD_REQUEST',
    'BAD_URL',
    'CTP_BODY_TOO_LARGE',
    'CTP_EMPTY_JSON_BODY',
    'CTP_INVALID_CONTENT_LENGTH',
    'CTP_INVALID_MEDIA_TYPE',
    'DATABASE_UNREACHABLE',
    'HEADERS_TOO_LARGE',
    'INTERNAL',
    'INVALID_SETTINGS',
    'MALFORMED_JSON',
    'NOT_FOUND',
    'REQUEST_TIMEOUT',
    'SCHEMA_BEHIND',
    'TENANT_EXISTS',
    'TENANT_INVALID',
    'TENANT_NOT_FOUND',
    'TENANT_REQUIRED',
    'URI_TOO_LONG',
    'WEBHOOK_SIGNATURE_INVALID',
  ])
  const statusWords = new Set(
    [400, 404, 409, 422, 500, 503].flatMap((status) => [
      errorMessage(answer(status), en),
      errorMessage(answer(status), ru),
    ]),
  )

  it.each(PROBLEM_CODES)('%s', (code) => {
    const english = errorMessage(answer(409, code), en)
    const russian = errorMessage(answer(409, code), ru)
    for (const words of [english, russian]) {
      expect(words).not.toBe('')
      expect(words).not.toMatch(/error\.|English detail|[A-Z]{3,}_[A-Z]/)
    }
    expect(russian).not.toBe(english)
    // VALIDATION_FAILED is what a 422 says anyway: the same sentence, by the status or the code.
    if (code !== 'VALIDATION_FAILED') expect(statusWords.has(english)).toBe(byStatus.has(code))
  })
})

describe('one-time codes', () => {
  it.each([
    [1, 'Неверный код. Осталась 1 попытка.'],
    [3, 'Неверный код. Осталось 3 попытки.'],
    [5, 'Неверный код. Осталось 5 попыток.'],
  ])('%i attempts left reads right in Russian', (count, words) => {
    const error = answer(400, 'OTP_INVALID', { attempts_left: count })
    expect(codeErrorMessage(error, ru, { language: 'ru' })).toBe(words)
  })

  it('a rate limit counts in seconds, from the body or the Retry-After header', () => {
    expect(codeErrorMessage(answer(429, 'RATE_LIMITED', { retry_after: 42 }), en)).toBe(
      'You can ask for a new code in 42 s.',
    )
    expect(codeErrorMessage(new ApiError(429, undefined, 30), en)).toBe(
      'You can ask for a new code in 30 s.',
    )
    expect(errorMessage(answer(429, 'RATE_LIMITED', { retry_after: 42 }), en)).toBe(
      'Too many attempts. Try again in 42 s.',
    )
  })

  it('a taken contact in a change is not "sign in instead"', () => {
    expect(codeErrorMessage(answer(409, 'EMAIL_TAKEN'), en)).toBe(
      'This email already belongs to another account.',
    )
    expect(codeErrorMessage(answer(409, 'PHONE_TAKEN'), ru)).toBe(
      'Этот номер уже привязан к другому аккаунту.',
    )
  })

  it('a block on another day names the date too', () => {
    const now = new Date(2026, 5, 3, 23, 50).getTime()
    const until = new Date(2026, 5, 4, 0, 5)
    const error = answer(423, 'OTP_BLOCKED', { blocked_until: until.toISOString() })
    const withDate = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(until)
    const realNow = Date.now
    Date.now = () => now
    try {
      expect(codeErrorMessage(error, en)).toBe(`Too many wrong codes. Try again at ${withDate}.`)
    } finally {
      Date.now = realNow
    }
  })
})

describe('fieldErrors', () => {
  it('puts our words at each field the server refused', () => {
    const error = answer(422, 'VALIDATION_FAILED', {
      errors: [
        { field: '/body/date_of_birth', message: 'must be an adult' },
        { field: '/body/address/country', message: 'unknown country' },
        { field: '/body/address/city', message: 'must NOT have fewer than 1 characters' },
      ],
    })
    expect(fieldErrors(error, en)).toEqual({
      '/body/date_of_birth': 'Enter your real date of birth. You need to be at least 18.',
      '/body/address/country': 'Choose a country from the list.',
      '/body/address/city': 'Check this value.',
    })
    expect(fieldErrors(new TypeError('offline'), en)).toEqual({})
  })
})
