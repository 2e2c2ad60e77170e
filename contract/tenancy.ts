/**
 * Which tenant and which application a request comes from: the two headers and
 * their values, read by the server and sent by the app. Imports nothing, so the
 * app can take these values without shipping a byte of TypeBox.
 */

/** docs/product.md §3: the application environments a request can come from. */
export const APP_ENVS = ['web', 'telegram'] as const
export type AppEnv = (typeof APP_ENVS)[number]

export const TENANT_HEADER = 'x-tenant-id'
export const APP_ENV_HEADER = 'x-app-env'

/**
 * The demo tenant seeded at first start (server/db/tenants.seed.json holds the
 * same id, checked by a test); the app sends it unless VITE_TENANT_ID says otherwise.
 */
export const DEMO_TENANT_ID = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
