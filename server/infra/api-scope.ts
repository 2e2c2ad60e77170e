import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Config } from '../config.ts'

/** v2 sends `Authorization: Bearer <token>`, v1 the raw token (SPEC.md §6). */
export type AuthScheme = 'bearer' | 'raw'

export type RoutesPlugin = FastifyPluginAsync<{ config: Config }>

/**
 * One API base (/api/v1 or /api/v2): every call names its tenant and app
 * environment, and every route is protected unless it says `public: true`.
 * Encapsulated (no fastify-plugin), so the hooks stay inside the prefix.
 */
export function apiScope(scheme: AuthScheme, routes: RoutesPlugin[]) {
  return async function scope(app: FastifyInstance, opts: { config: Config }) {
    // The document says what the auth hook does: a developer key works wherever a session
    // does, except on the routes that insist on a person (`sessionOnly`).
    app.addHook('onRoute', (route) => {
      const security = route.schema?.security as Record<string, string[]>[] | undefined
      if (!security?.length || route.config?.sessionOnly) return
      if (security.some((requirement) => 'apiKey' in requirement)) return
      route.schema = { ...route.schema, security: [...security, { apiKey: [] }] }
    })
    app.addHook('onRequest', app.requireTenant)
    app.addHook('onRequest', app.authenticate(scheme))
    for (const plugin of routes) await app.register(plugin, { config: opts.config })
  }
}
