import type { ApiError } from '../net/api.ts'
import type { MessageKey } from './en.ts'
import type { Translate } from './i18n.tsx'

const KNOWN_CODES = new Set<string>([
  'INVALID_CREDENTIALS',
  'EMAIL_TAKEN',
  'RATE_LIMITED',
  'VALIDATION_FAILED',
])

/** What to tell a person about a failed call: a known problem code, a lost connection, or sorry. */
export function errorMessage(error: unknown, t: Translate): string {
  if (error instanceof TypeError) return t('error.network')
  const code = (error as Partial<ApiError> | null)?.code
  if (code && KNOWN_CODES.has(code)) return t(`error.${code}` as MessageKey)
  return t('error.generic')
}
