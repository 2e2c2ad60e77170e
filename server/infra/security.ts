import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import type { Config } from '../config.ts'

/**
 * The headers helmet sets with these options, worked out once: helmet's own
 * middleware run against a response that only records them. They depend on
 * nothing in the request (no CSP nonces), so every answer carries the same
 * set — which @fastify/helmet rebuilt from the options on every request.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers = new Map<string, string>()
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value))
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase())
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  }
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error
    },
  )
  return Object.fromEntries(headers)
}

/**
 * What every other answer needs: not to be sniffed into another type, not to
 * be read by another site's page, and — opened as a page — to run and load
 * nothing and be framed by no one.
 */
export const RESOURCE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
}

/** The scripts a worker runs: the service worker, and a worker chunk the build names `*.worker-<hash>.js`. */
const WORKER_SCRIPT = /^\/(sw\.js|assets\/[^/]+\.worker-[\w-]+\.js)$/

/**
 * A document (HTML) or a worker's script: what the page's or the worker's
 * policy is read from (CSP, COOP, the referrer policy apply to what an answer
 * creates, not to a script a page loads nor to JSON it fetches).
 */
export const isDocument = (url: string, contentType: unknown) =>
  String(contentType ?? '').startsWith('text/html') || WORKER_SCRIPT.test(url.split('?')[0]!)

/**
 * Security headers on every answer, in two sets: a page (and a worker's
 * script) carries helmet's whole set — the CSP allows no inline script at
 * all; Telegram's clients embed the Mini App in a frame, so they may frame
 * us; we frame nobody, except Sumsub's verification flow where the deployment
 * uses it. Every other answer (API, scripts, styles, images) carries
 * RESOURCE_HEADERS: the document headers on them did nothing but weigh about
 * 800 bytes each, some fifty times over on a first visit (issue 27).
 */
export default fp(
  async function security(app: FastifyInstance, opts: { config: Pick<Config, 'kyc'> }) {
    // Sumsub's WebSDK runs its flow in a frame of SUMSUB_WEBSDK_ORIGIN (the
    // token's `url` claim names it; in.sumsub.com unless the account is regional).
    const sumsub = opts.config.kyc.provider === 'sumsub' ? opts.config.kyc.sumsub : undefined
    const frames = sumsub ? [sumsub.websdkOrigin] : []
    const documentHeaders = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:', 'https://t.me', 'https://*.telegram.org'],
          'font-src': ["'self'"],
          'connect-src': ["'self'"],
          'worker-src': ["'self'", 'blob:'],
          'frame-src': ["'self'", ...frames],
          'manifest-src': ["'self'"],
          'object-src': ["'none'"],
          'base-uri': ["'self'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'self'", 'https://web.telegram.org', 'https://*.telegram.org'],
        },
      },
      frameguard: false,
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
      referrerPolicy: { policy: 'no-referrer' },
    })
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(RESOURCE_HEADERS)
      done()
    })
    // At the answer, when its type is known (an unknown path is the app's page for a browser).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (isDocument(request.url, reply.getHeader('content-type'))) reply.headers(documentHeaders)
      done(null, payload)
    })
  },
  { name: 'security' },
)
