import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ProblemError } from './problem.ts'

/** Files that must be revalidated on every load so a new release is picked up. */
const ALWAYS_REVALIDATE = new Set(['index.html', 'sw.js', 'manifest.webmanifest'])

const isNavigation = (request: FastifyRequest) =>
  request.method === 'GET' &&
  !/^\/(api|metrics|healthz)(\/|$)/.test(request.url) &&
  (request.headers.accept ?? '').includes('text/html')

/**
 * Serves the built app from the same origin as the API: hashed assets for a
 * year, the shell and the worker never from a stale cache, and every unknown
 * navigation to index.html so client-side routes survive a reload. Anything
 * else unknown is a problem+json 404.
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
        setHeaders(res, path) {
          const file = path.slice(opts.distDir.length + 1)
          res.setHeader(
            'cache-control',
            ALWAYS_REVALIDATE.has(file)
              ? 'no-cache'
              : file.startsWith('assets/')
                ? 'public, max-age=31536000, immutable'
                : 'public, max-age=86400',
          )
          if (file === 'sw.js') res.setHeader('service-worker-allowed', '/')
        },
      })
    } else {
      app.log.warn(
        { distDir: opts.distDir },
        'no built app: serving the API only (run npm run build)',
      )
    }

    app.setNotFoundHandler((request, reply) => {
      if (hasApp && isNavigation(request)) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html')
      }
      throw new ProblemError(
        404,
        'NOT_FOUND',
        `No route for ${request.method} ${request.url.split('?')[0]}`,
      )
    })
  },
  { name: 'web', dependencies: ['errors'] },
)
