import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { SignJWT } from 'jose'

export interface AccessClaims {
  userId: string
  tenantId: string
  sessionId: string
}

const ISSUER = 'finplatform'

/**
 * Access tokens verified once and remembered by their text: a person's every
 * call carries the same token for its whole life (`accessTtl`), and its HMAC
 * and two JSON parses were a tenth of an authenticated call. Only tokens that
 * passed are kept, each until its `exp`; the oldest go first past the bound.
 */
const VERIFIED_MAX = 20_000

/**
 * Access tokens are short-lived HS256 JWTs. Refresh tokens are opaque 256-bit
 * values derived as HMAC(refreshKey, token id): the database keeps only their
 * SHA-256, yet the server can hand the *current* token of a session back to a
 * client that retries within the reuse grace window without ever storing it.
 */
export class Tokens {
  readonly #verified = new Map<string, { claims: AccessClaims; exp: number }>()

  constructor(
    private readonly keys: { jwtKey: Uint8Array; refreshKey: Uint8Array },
    readonly accessTtl: number,
  ) {}

  issueAccess(claims: AccessClaims, now = new Date()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000)
    return new SignJWT({ tid: claims.tenantId, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.accessTtl)
      .sign(this.keys.jwtKey)
  }

  /**
   * The claims of a valid, unexpired access token; null for anything else.
   * Checked as jose's jwtVerify checks it (HS256 only, no `crit`, the issuer,
   * `exp` and `nbf` against the current second), but with node:crypto's HMAC,
   * synchronously: WebCrypto's verify runs as an async job per token and cost
   * every authenticated call about as much as its own database read.
   */
  verifyAccess(token: string, now = Date.now()): AccessClaims | null {
    const second = Math.floor(now / 1000)
    const known = this.#verified.get(token)
    if (known) {
      if (known.exp > second) return known.claims
      this.#verified.delete(token)
      return null
    }
    const verified = this.#verify(token, second)
    if (!verified) return null
    if (this.#verified.size >= VERIFIED_MAX) {
      this.#verified.delete(this.#verified.keys().next().value as string)
    }
    this.#verified.set(token, verified)
    return verified.claims
  }

  #verify(token: string, second: number): { claims: AccessClaims; exp: number } | null {
    const parts = token.split('.')
    if (parts.length !== 3) return null
    const [header, payload, signature] = parts as [string, string, string]
    const expected = createHmac('sha256', this.keys.jwtKey)
      .update(`${header}.${payload}`)
      .digest('base64url')
    if (
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
    ) {
      return null
    }
    const protectedHeader = decodePart(header)
    if (protectedHeader?.alg !== 'HS256' || 'crit' in protectedHeader) return null
    const claims = decodePart(payload)
    if (!claims || claims.iss !== ISSUER) return null
    if (typeof claims.exp !== 'number' || claims.exp <= second) return null
    if ('nbf' in claims && (typeof claims.nbf !== 'number' || claims.nbf > second)) return null
    if ('iat' in claims && typeof claims.iat !== 'number') return null
    const { sub, tid, sid } = claims
    if (typeof sub !== 'string' || typeof tid !== 'string' || typeof sid !== 'string') return null
    return { claims: { userId: sub, tenantId: tid, sessionId: sid }, exp: claims.exp }
  }

  refreshTokenFor(tokenId: string): string {
    return createHmac('sha256', this.keys.refreshKey).update(tokenId).digest('base64url')
  }

  static hash(refreshToken: string): string {
    return createHash('sha256').update(refreshToken).digest('hex')
  }
}

/** A JWT part as the JSON object it must be; undefined for anything else. */
function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
