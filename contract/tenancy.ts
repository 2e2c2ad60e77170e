import { oneOf } from './enums.ts'

/** SPEC.md §3: the application environments a request can come from. */
export const APP_ENVS = ['web', 'telegram'] as const
export const AppEnv = oneOf(APP_ENVS)
export type AppEnv = (typeof APP_ENVS)[number]

export const TENANT_HEADER = 'x-tenant-id'
export const APP_ENV_HEADER = 'x-app-env'

/** The demo tenant seeded at first start; the app sends it unless VITE_TENANT_ID says otherwise. */
export const DEMO_TENANT_ID = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
