import { constants } from 'node:zlib'
import compress from '@fastify/compress'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Config } from '../config.ts'

/** v2 sends `Authorization: Bearer <token>`, v1 the raw token (docs/product.md §6). */
export type AuthScheme = 'bearer' | 'raw'

export type RoutesPlugin = FastifyPluginAsync<{ config: Config }>

/**
 * API answers of 1 KB and more are compressed on the way out (a wallet list,
 * a page of history, a CSV export); smaller ones cost more to compress than
 * they save. Brotli at quality 4 compresses about as well as gzip's best at a
 * fraction of brotli's default (11) CPU, which is meant for files built once.
 */
export const API_COMPRESSION = {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  // Request bodies are small JSON: no decompression hook on every request.
  globalDecompression: false,
} as const

/**
 * One API base (/api/v1 or /api/v2): every call names its tenant and app
 * environment, every route is protected unless its policy (server/route-policy.ts)
 * makes it public, and answers above a small size are compressed. Encapsulated (no fastify-plugin), so the hooks stay inside the prefix.
 */
export function apiScope(scheme: AuthScheme, routes: RoutesPlugin[]) {
  return async function scope(app: FastifyInstance, opts: { config: Config }) {
    await app.register(compress, { ...API_COMPRESSION, encodings: [...API_COMPRESSION.encodings] })
    app.addHook('onRequest', app.requireTenant)
    app.addHook('onRequest', app.authenticate(scheme))
    for (const plugin of routes) await app.register(plugin, { config: opts.config })
  }
}
