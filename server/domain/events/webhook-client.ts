import { randomBytes } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { guardedLookup, isPublicAddress, RefusedAddressError, type Resolve } from './ssrf.ts'

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`

/**
 * The three Standard Webhooks headers for one message. While a rotated-out
 * secret overlaps, the signature header carries both signatures (space
 * separated), so a receiver holding either secret verifies it.
 */
export function signedHeaders(
  message: { id: string; timestamp: Date; body: string },
  secrets: readonly string[],
): Record<string, string> {
  const signatures = secrets.map((secret) =>
    new Webhook(secret).sign(message.id, message.timestamp, message.body),
  )
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  }
}

export interface PostOutcome {
  ok: boolean
  status: number | null
  error: string | null
}

/** How long a receiver may take to answer before the try counts as failed. */
const TIMEOUT_MS = 10_000

/**
 * POSTs one signed webhook. Outside the sandbox the connection goes only to
 * public addresses (checked after DNS, on the address connected to). A 2xx is
 * success; anything else, a redirect included, is a failed try. Never throws.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { sandbox: boolean; resolve?: Resolve },
): Promise<PostOutcome> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return Promise.resolve({ ok: false, status: null, error: 'invalid URL' })
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!options.sandbox) {
    if (target.protocol !== 'https:') {
      return Promise.resolve({ ok: false, status: null, error: 'only https is allowed' })
    }
    if (isIP(host) && !isPublicAddress(host)) {
      return Promise.resolve({
        ok: false,
        status: null,
        error: new RefusedAddressError(host).message,
      })
    }
  }
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Finplatform-Webhooks/1',
        },
        timeout: TIMEOUT_MS,
        ...(options.sandbox ? {} : { lookup: guardedLookup(options.resolve) }),
      },
      (response) => {
        // The receiver's body is not read beyond draining it: only the status counts.
        response.resume()
        response.on('end', () => {
          const status = response.statusCode ?? 0
          const ok = status >= 200 && status < 300
          resolve({ ok, status, error: ok ? null : `HTTP ${status}` })
        })
        response.on('error', (error) =>
          resolve({ ok: false, status: response.statusCode ?? null, error: error.message }),
        )
      },
    )
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)),
    )
    request.on('error', (error) => resolve({ ok: false, status: null, error: error.message }))
    request.end(body)
  })
}
