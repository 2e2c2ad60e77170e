import { createHmac, timingSafeEqual } from 'node:crypto'
import type { KycStatus } from '../../../contract/enums.ts'
import type { SumsubDigestAlg } from '../../kyc-config.ts'
import {
  type AccessTokenRequest,
  type KycAccessToken,
  type KycProvider,
  KycProviderError,
  type KycProviderEvent,
} from './kyc.ts'

export interface SumsubOptions {
  /** https://api.sumsub.com, or a fake server in tests. */
  baseUrl: string
  appToken: string
  secretKey: string
  webhookSecret: string
  /** The one webhook digest algorithm accepted (SUMSUB_WEBHOOK_DIGEST_ALG); HMAC_SHA256_HEX. */
  webhookDigestAlg?: SumsubDigestAlg
  timeoutMs?: number
  /** Seconds since the epoch, for X-App-Access-Ts. */
  clock?: () => Date
}

/**
 * Sumsub's request signature (App Token authentication): the lower-case hex
 * HMAC-SHA256, under the app token's secret key, of the timestamp (seconds,
 * as sent in X-App-Access-Ts), the method in upper case, the path with its
 * query string, and the body exactly as sent — concatenated, no separators.
 */
export function signRequest(input: {
  secretKey: string
  ts: string
  method: string
  pathWithQuery: string
  body: string
}): string {
  return createHmac('sha256', input.secretKey)
    .update(input.ts + input.method.toUpperCase() + input.pathWithQuery + input.body)
    .digest('hex')
}

/** X-Payload-Digest-Alg values Sumsub sends, and the hash each names. */
const DIGEST_ALGORITHMS: Record<SumsubDigestAlg, string> = {
  HMAC_SHA1_HEX: 'sha1',
  HMAC_SHA256_HEX: 'sha256',
  HMAC_SHA512_HEX: 'sha512',
}

/**
 * Checks a webhook's X-Payload-Digest: the hex HMAC of the raw body under the
 * webhook's secret, with the one algorithm this deployment is set to
 * (`expected`, HMAC_SHA256_HEX by default). X-Payload-Digest-Alg, when sent,
 * must name that same algorithm: the sender does not get to pick a weaker
 * one. The body must be the bytes received: parsing and re-serialising JSON
 * changes them. Compared in constant time.
 */
export function verifyWebhookDigest(input: {
  secret: string
  rawBody: Buffer | string
  digest: string | undefined
  algorithm: string | undefined
  expected?: SumsubDigestAlg
}): boolean {
  const pinned = input.expected ?? 'HMAC_SHA256_HEX'
  if (input.algorithm !== undefined && input.algorithm !== pinned) return false
  const hash = DIGEST_ALGORITHMS[pinned]
  if (!hash || !input.digest || !/^[0-9a-f]+$/i.test(input.digest)) return false
  const expected = createHmac(hash, input.secret).update(input.rawBody).digest()
  const given = Buffer.from(input.digest, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Sumsub's user-verification webhook, in our statuses (docs/product.md §4):
 * applicantPending → PENDING, applicantOnHold → HOLD, applicantReset →
 * UNVERIFIED; applicantReviewed GREEN → APPROVED, RED with reviewRejectType
 * RETRY → SOFT_REJECT, RED FINAL → REJECT (DOUBLE when a rejection label says
 * the person is a duplicate), any other RED → DECLINED. Other types change no
 * status. Dates: `createdAtMs` ("2024-05-01 10:00:00.123", UTC) or ISO.
 */
export function readWebhook(payload: unknown): KycProviderEvent {
  const body = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>
  const type = typeof body.type === 'string' ? body.type : 'unknown'
  const review = (body.reviewResult ?? {}) as Record<string, unknown>
  const labels = Array.isArray(review.rejectLabels) ? review.rejectLabels.map(String) : []
  const comment =
    typeof review.moderationComment === 'string' && review.moderationComment.trim()
      ? review.moderationComment.trim()
      : undefined
  let status: KycStatus | undefined
  let reason: string | undefined
  switch (type) {
    case 'applicantPending':
      status = 'PENDING'
      break
    case 'applicantOnHold':
      status = 'HOLD'
      break
    case 'applicantReset':
      status = 'UNVERIFIED'
      break
    case 'applicantReviewed':
      if (review.reviewAnswer === 'GREEN') status = 'APPROVED'
      else if (review.reviewAnswer === 'RED') {
        reason = comment ?? (labels.length > 0 ? labels.join(', ') : undefined)
        if (labels.some((label) => label.includes('DUPLICATE'))) status = 'DOUBLE'
        else if (review.reviewRejectType === 'RETRY') status = 'SOFT_REJECT'
        else if (review.reviewRejectType === 'FINAL') status = 'REJECT'
        else status = 'DECLINED'
      }
      break
  }
  return {
    type,
    externalUserId: typeof body.externalUserId === 'string' ? body.externalUserId : undefined,
    status,
    reason,
    occurredAt: sumsubDate(body.createdAtMs ?? body.createdAt),
  }
}

function sumsubDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined
  const text = String(value)
  // "2024-05-01 10:00:00.123" is UTC without saying so.
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d/.test(text) ? `${text.replace(' ', 'T')}Z` : text
  const date = new Date(/^\d+$/.test(iso) ? Number(iso) : iso)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** Sumsub (https://docs.sumsub.com): signed API calls out, digest-checked webhooks in. */
export class SumsubKyc implements KycProvider {
  readonly name = 'sumsub' as const
  readonly #options: Required<SumsubOptions>

  constructor(options: SumsubOptions) {
    this.#options = {
      timeoutMs: 10_000,
      clock: () => new Date(),
      webhookDigestAlg: 'HMAC_SHA256_HEX',
      ...options,
    }
  }

  /** POST /resources/accessTokens/sdk {userId, levelName, ttlInSecs} → {token, userId}. */
  async accessToken(request: AccessTokenRequest): Promise<KycAccessToken> {
    const issuedAt = this.#options.clock()
    const reply = await this.#call('POST', '/resources/accessTokens/sdk', {
      userId: request.userId,
      levelName: request.levelName,
      ttlInSecs: request.ttlSeconds,
    })
    const token = (reply as { token?: unknown } | undefined)?.token
    if (typeof token !== 'string' || token === '') {
      throw new KycProviderError('Sumsub answered without a token.')
    }
    return { token, expiresAt: new Date(issuedAt.getTime() + request.ttlSeconds * 1000) }
  }

  /**
   * Resolves when Sumsub answers a signed request as documented: a lookup of
   * an applicant no one has is 404 once the signature is accepted (401 when
   * not). For the vendors list; creates nothing at Sumsub.
   * @throws KycProviderError
   */
  async probe(): Promise<void> {
    const response = await this.#send(
      'GET',
      '/resources/applicants/-;externalUserId=health-probe/one',
    )
    if (response.status !== 404 && !response.ok) {
      throw new KycProviderError(`Sumsub answered ${response.status} to the health probe.`)
    }
  }

  /** Whether a webhook really comes from Sumsub (its X-Payload-Digest headers). */
  verifyWebhook(rawBody: Buffer | string, headers: Record<string, unknown>): boolean {
    const header = (name: string) => {
      const value = headers[name]
      return typeof value === 'string' ? value : undefined
    }
    return verifyWebhookDigest({
      secret: this.#options.webhookSecret,
      rawBody,
      digest: header('x-payload-digest'),
      algorithm: header('x-payload-digest-alg'),
      expected: this.#options.webhookDigestAlg,
    })
  }

  async #call(method: 'GET' | 'POST', pathWithQuery: string, payload?: unknown) {
    const response = await this.#send(method, pathWithQuery, payload)
    const text = await response.text().catch(() => '')
    if (!response.ok) {
      // Sumsub's error body ({description, code, correlationId}) is for our logs, not the person.
      throw new KycProviderError(`Sumsub answered ${response.status}: ${text.slice(0, 300)}`)
    }
    try {
      return text ? (JSON.parse(text) as unknown) : undefined
    } catch (error) {
      throw new KycProviderError('Sumsub answered something that is not JSON.', { cause: error })
    }
  }

  /** One signed request; a network failure or a timeout is a KycProviderError. */
  async #send(method: 'GET' | 'POST', pathWithQuery: string, payload?: unknown) {
    const body = payload === undefined ? '' : JSON.stringify(payload)
    const ts = String(Math.floor(this.#options.clock().getTime() / 1000))
    try {
      return await fetch(`${this.#options.baseUrl}${pathWithQuery}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined && { 'content-type': 'application/json' }),
          'x-app-token': this.#options.appToken,
          'x-app-access-ts': ts,
          'x-app-access-sig': signRequest({
            secretKey: this.#options.secretKey,
            ts,
            method,
            pathWithQuery,
            body,
          }),
        },
        ...(payload !== undefined && { body }),
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      })
    } catch (error) {
      throw new KycProviderError('Sumsub could not be reached.', { cause: error })
    }
  }
}
