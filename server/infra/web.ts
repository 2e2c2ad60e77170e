import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ProblemError } from './problem.ts'

/** Files that must be revalidated on every load so a new release is picked up. */
const ALWAYS_REVALIDATE = new Set(['index.html', 'sw.js', 'manifest.webmanifest'])

/** What the build wrote beside a file (vite.config.ts precompress): `x.js.br`, `x.js.gz`. */
const ENCODED_SUFFIX = /\.(br|gz)$/

/**
 * Source maps stay on disk for error reports (the build writes them without a
 * `sourceMappingURL` comment) and are never served: they hold the sources.
 */
const isSourceMap = (path: string) => /\.map(\.(br|gz))?$/.test(path)

export function cacheControl(file: string): string {
  if (ALWAYS_REVALIDATE.has(file)) return 'no-cache'
  // Named by their content hash: a new release has new names.
  if (file.startsWith('assets/')) return 'public, max-age=31536000, immutable'
  return 'public, max-age=86400'
}

const isNavigation = (request: FastifyRequest) =>
  request.method === 'GET' &&
  !/^\/(api|metrics|healthz)(\/|$)/.test(request.url) &&
  (request.headers.accept ?? '').includes('text/html')

/**
 * Serves the built app from the same origin as the API: hashed assets for a
 * year, the shell and the worker never from a stale cache, and every unknown
 * navigation to index.html so client-side routes survive a reload. Anything
 * else unknown is a problem+json 404.
 *
 * Text files go out as the build compressed them — brotli, else gzip, as the
 * request's Accept-Encoding allows — so nothing is compressed per request.
 */
export default fp(
  async function web(app: FastifyInstance, opts: { distDir: string }) {
    const hasApp = existsSync(join(opts.distDir, 'index.html'))
    if (hasApp) {
      await app.register(fastifyStatic, {
        root: opts.distDir,
        // One wildcard route that looks the file up per request: registering a
        // route per built file meant walking dist/ at every start.
        wildcard: true,
        cacheControl: false,
        preCompressed: true,
        allowedPath: (path) => !isSourceMap(path),
        setHeaders(res, path) {
          // `path` is the file sent: `assets/x.js.br` stands for `assets/x.js`.
          const file = path.slice(opts.distDir.length + 1).replace(ENCODED_SUFFIX, '')
          res.setHeader('cache-control', cacheControl(file))
          // A cache keeps the brotli, gzip and plain answers apart.
          res.setHeader('vary', 'Accept-Encoding')
          if (file === 'sw.js') res.setHeader('service-worker-allowed', '/')
        },
      })
      // Named by their content and never revalidated: a validator or a range
      // offer on them would only weigh on every answer of a first visit.
      app.addHook('onSend', (request, reply, payload, done) => {
        if (request.url.startsWith('/assets/')) {
          reply.removeHeader('etag')
          reply.removeHeader('last-modified')
          reply.removeHeader('accept-ranges')
        }
        done(null, payload)
      })
    } else {
      app.log.warn(
        { distDir: opts.distDir },
        'no built app: serving the API only (run npm run build)',
      )
    }

    app.setNotFoundHandler((request, reply) => {
      if (hasApp && isNavigation(request)) return reply.sendFile('index.html')
      throw new ProblemError(
        404,
        'NOT_FOUND',
        `No route for ${request.method} ${request.url.split('?')[0]}`,
      )
    })
  },
  { name: 'web', dependencies: ['errors'] },
)
