import { type AppEnv, DEMO_TENANT_ID } from '../../contract/tenancy.ts'

export interface NetConfig {
  /** Absolute or same-origin path prefixes of the two API bases. */
  v1Base: string
  v2Base: string
  tenantId: string
  /** Used when a request does not say which environment it comes from. */
  appEnv: AppEnv
  logoutLocation: string
  timeoutMs: number
}

/**
 * docs/product.md §5: the values that mean "off" wherever a launch parameter or a
 * config flag is read — the strings "false", "0", "" and "FALSE", boolean
 * false, null, undefined, NaN and the number 0. Everything else is "on".
 */
export function isFalsy(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true
  if (typeof value === 'number') return value === 0 || Number.isNaN(value)
  if (typeof value === 'string') return ['false', '0', '', 'FALSE'].includes(value)
  return false
}

/** A build-time flag: unset means `fallback`; set, it is on unless it is one of the falsy values. */
export const flag = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined ? fallback : !isFalsy(value)

/**
 * `VITE_TELEGRAM_MINI_APP` (on unless set to a falsy value): whether this
 * build acts as a Telegram Mini App when it is launched from one.
 */
export const telegramEnabled = flag(import.meta.env.VITE_TELEGRAM_MINI_APP, true)

/** docs/product.md §9 constants, overridable at build time through VITE_* variables (docs/architecture.md). */
export const netConfig: NetConfig = {
  v1Base: import.meta.env.VITE_API_V1_URL || '/api/v1',
  v2Base: import.meta.env.VITE_API_V2_URL || '/api/v2',
  tenantId: import.meta.env.VITE_TENANT_ID || DEMO_TENANT_ID,
  appEnv: 'web',
  logoutLocation: import.meta.env.VITE_LOGOUT_LOCATION || '/auth/logout',
  timeoutMs: 60_000,
}

/** A message from whoever logged out to every window of the app. */
export interface LogoutMessage {
  type: 'auth:logout'
  location: string
}

export const LOGOUT_CHANNEL = 'auth'

export const isLogoutMessage = (data: unknown): data is LogoutMessage =>
  typeof data === 'object' &&
  data !== null &&
  (data as LogoutMessage).type === 'auth:logout' &&
  typeof (data as LogoutMessage).location === 'string'
