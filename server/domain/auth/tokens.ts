import { createHash, createHmac } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'

export interface AccessClaims {
  userId: string
  tenantId: string
  sessionId: string
}

const ISSUER = 'finplatform'

/**
 * Access tokens are short-lived HS256 JWTs. Refresh tokens are opaque 256-bit
 * values derived as HMAC(refreshKey, token id): the database keeps only their
 * SHA-256, yet the server can hand the *current* token of a session back to a
 * client that retries within the reuse grace window without ever storing it.
 */
export class Tokens {
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

  /** The claims of a valid, unexpired access token; null for anything else. */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.keys.jwtKey, {
        issuer: ISSUER,
        algorithms: ['HS256'],
      })
      const { sub, tid, sid } = payload
      if (typeof sub !== 'string' || typeof tid !== 'string' || typeof sid !== 'string') return null
      return { userId: sub, tenantId: tid, sessionId: sid }
    } catch (error) {
      if (error instanceof errors.JOSEError) return null
      throw error
    }
  }

  refreshTokenFor(tokenId: string): string {
    return createHmac('sha256', this.keys.refreshKey).update(tokenId).digest('base64url')
  }

  static hash(refreshToken: string): string {
    return createHash('sha256').update(refreshToken).digest('hex')
  }
}
