import type { AppEnv } from '../../contract/tenancy.ts'

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

/** SPEC.md §9 constants, overridable at build time through VITE_* variables (DESIGN.md). */
export const netConfig: NetConfig = {
  v1Base: import.meta.env.VITE_API_V1_URL || '/api/v1',
  v2Base: import.meta.env.VITE_API_V2_URL || '/api/v2',
  tenantId: import.meta.env.VITE_TENANT_ID || '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01',
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
