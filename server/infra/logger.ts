import type { FastifyServerOptions } from 'fastify'
import type { Config } from '../config.ts'

/**
 * Structured JSON logs. Credentials never reach them: headers that carry
 * tokens, and any field named like a secret at any depth we log.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  // Telegram launch data signs a person in (the proxies strip it; an outdated worker may not).
  'req.headers["x-telegram-init-data"]',
  'init_data',
  '*.init_data',
  'res.headers["set-cookie"]',
  'password',
  'access_token',
  'refresh_token',
  '*.password',
  '*.access_token',
  '*.refresh_token',
  '*.*.password',
  '*.*.access_token',
  '*.*.refresh_token',
  // Card secrets (domain/cards): never logged on purpose; redacted should one slip into a log call.
  'pan',
  'cvv',
  'encrypted_key',
  '*.pan',
  '*.cvv',
  '*.encrypted_key',
]

export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(stream && { stream }),
  }
}
