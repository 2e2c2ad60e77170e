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

/** How the guarded POST treats addresses: the sandbox lets local receivers through. */
export interface ReachPolicy {
  sandbox: boolean
  resolve?: Resolve
}

/** POSTs one signed webhook (JSON). A 2xx is success; anything else, a redirect included, is not. */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: ReachPolicy,
): Promise<PostOutcome> {
  return postGuarded(
    url,
    body,
    { ...headers, 'content-type': 'application/json', 'user-agent': 'Finplatform-Webhooks/1' },
    policy,
  )
}

/**
 * POSTs to a URL someone else chose (a webhook endpoint, a push service).
 * Outside the sandbox only https to public addresses, checked on the address
 * actually connected to, after DNS. Never throws: the outcome says what happened.
 */
export function postGuarded(
  url: string,
  body: string | Buffer,
  headers: Record<string, string | number>,
  policy: ReachPolicy,
): Promise<PostOutcome> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return Promise.resolve({ ok: false, status: null, error: 'invalid URL' })
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1')
  if (target.protocol !== 'https:' && (target.protocol !== 'http:' || !policy.sandbox)) {
    return Promise.resolve({ ok: false, status: null, error: 'only https is allowed' })
  }
  if (!policy.sandbox && isIP(host) && !isPublicAddress(host)) {
    return Promise.resolve({
      ok: false,
      status: null,
      error: new RefusedAddressError(host).message,
    })
  }
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: TIMEOUT_MS,
        ...(policy.sandbox ? {} : { lookup: guardedLookup(policy.resolve) }),
      },
      (response) => {
        // The answer's body is not read beyond draining it: only the status counts.
        response.resume()
        const status = response.statusCode ?? 0
        response.on('end', () => {
          const ok = status >= 200 && status < 300
          resolve({ ok, status, error: ok ? null : `HTTP ${status}` })
        })
        response.on('error', (error) => resolve({ ok: false, status, error: error.message }))
      },
    )
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)),
    )
    request.on('error', (error) => resolve({ ok: false, status: null, error: error.message }))
    request.end(body)
  })
}
