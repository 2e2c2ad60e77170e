import { createHmac, timingSafeEqual } from 'node:crypto'
import { parse as parseUuid, stringify as stringifyUuid } from 'uuid'

/*
 * A receipt's sign-in-free link (Telegram's downloadFile fetches it with no
 * Authorization): whose item, which, until when — signed. A receipt is
 * rendered on demand and kept nowhere, so the link carries its request
 * instead of naming a stored file the way a statement's does. It has to fit
 * one path segment (Fastify's maxParamLength, 100): three ids and the expiry
 * packed in 52 bytes, and the MAC cut to 128 bits. The language and the zone
 * only shape the page: they ride in the query, unsigned.
 */

export interface ReceiptClaims {
  tenantId: string
  userId: string
  activityId: string
  /** Seconds since the epoch. */
  expiresAt: number
}

const BODY_BYTES = 16 * 3 + 4
const MAC_BYTES = 16

/** The key receipt links are signed with, derived from the server's JWT secret for this use only. */
export const receiptLinkKey = (jwtKey: Uint8Array): Buffer =>
  createHmac('sha256', jwtKey).update('finplatform receipt links v1').digest()

const mac = (key: Uint8Array, body: Buffer) =>
  createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES)

export function signReceiptLink(key: Uint8Array, claims: ReceiptClaims): string {
  const body = Buffer.alloc(BODY_BYTES)
  body.set(parseUuid(claims.tenantId), 0)
  body.set(parseUuid(claims.userId), 16)
  body.set(parseUuid(claims.activityId), 32)
  body.writeUInt32BE(claims.expiresAt, 48)
  return `${body.toString('base64url')}.${mac(key, body).toString('base64url')}`
}

/** The claims of a link this server signed and that has not expired; undefined for any other. */
export function readReceiptLink(
  key: Uint8Array,
  token: string,
  now: Date,
): ReceiptClaims | undefined {
  const [encoded, signature, ...rest] = token.split('.')
  if (encoded === undefined || signature === undefined || rest.length > 0) return undefined
  const body = Buffer.from(encoded, 'base64url')
  const given = Buffer.from(signature, 'base64url')
  if (body.length !== BODY_BYTES || given.length !== MAC_BYTES) return undefined
  // One spelling per link: base64url's last character carries spare bits a decoder ignores.
  if (body.toString('base64url') !== encoded || given.toString('base64url') !== signature) {
    return undefined
  }
  if (!timingSafeEqual(given, mac(key, body))) return undefined
  const expiresAt = body.readUInt32BE(48)
  if (expiresAt * 1000 <= now.getTime()) return undefined
  return {
    tenantId: stringifyUuid(body.subarray(0, 16)),
    userId: stringifyUuid(body.subarray(16, 32)),
    activityId: stringifyUuid(body.subarray(32, 48)),
    expiresAt,
  }
}
