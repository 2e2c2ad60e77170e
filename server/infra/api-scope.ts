import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Config } from '../config.ts'
import type { AuthScheme } from './auth.ts'

export type RoutesPlugin = FastifyPluginAsync<{ config: Config }>

/**
 * One API base (/api/v1 or /api/v2): every call names its tenant and app
 * environment, and every route is protected unless it says `public: true`.
 * Encapsulated (no fastify-plugin), so the hooks stay inside the prefix.
 */
export function apiScope(scheme: AuthScheme, routes: RoutesPlugin[]) {
  return async function scope(app: FastifyInstance, opts: { config: Config }) {
    app.addHook('onRequest', app.requireTenant)
    app.addHook('onRequest', app.authenticate(scheme))
    for (const plugin of routes) await app.register(plugin, { config: opts.config })
  }
}
