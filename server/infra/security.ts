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
 * Security headers on every answer. The CSP allows no inline script at all;
 * Telegram's clients embed the Mini App in a frame, so they may frame us. We
 * frame nobody, except Sumsub's verification flow where the deployment uses it.
 */
export default fp(
  async function security(app: FastifyInstance, opts: { config: Pick<Config, 'kyc'> }) {
    // Sumsub's WebSDK runs its flow in a frame of SUMSUB_WEBSDK_ORIGIN (the
    // token's `url` claim names it; in.sumsub.com unless the account is regional).
    const sumsub = opts.config.kyc.provider === 'sumsub' ? opts.config.kyc.sumsub : undefined
    const frames = sumsub ? [sumsub.websdkOrigin] : []
    const headers = securityHeaders({
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
      reply.headers(headers)
      done()
    })
  },
  { name: 'security' },
)
