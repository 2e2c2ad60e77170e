import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import { parse as parseUuid, stringify as stringifyUuid } from 'uuid'

/**
 * One-tap lockdown tokens (issue 30): what a push notification's button, a
 * Telegram inline button and a security e-mail's link carry, so a tap locks
 * the person's account without signing in.
 *
 * A token is signed, not stored — an alert goes out for every card payment,
 * and a table of tokens would grow with them — and names its person, its
 * channel and its expiry inside the signature, so a forged or altered one is
 * refused by its MAC alone. Its random nonce is recorded when it is used
 * (lockdown_link_uses), so each works once.
 *
 * Layout, 46 bytes, base64url (62 characters: within Telegram's 64-byte
 * callback_data): version (1) | channel (1) | expires, Unix seconds (4) |
 * nonce (8) | user id (16) | HMAC-SHA256 over all of that, first 16 bytes.
 */

export const LINK_CHANNELS = ['push', 'telegram', 'email'] as const
export type LinkChannel = (typeof LINK_CHANNELS)[number]

/** A token works for a day: the e-mail's promise, and the same for the rest. */
export const LINK_TTL_SECONDS = 24 * 3600

const VERSION = 1
const SIGNED_LENGTH = 30
const MAC_LENGTH = 16

export interface OpenedLink {
  userId: string
  channel: LinkChannel
  /** Recorded on use: the token's single use. */
  nonce: string
}

export type LinkRefusal = 'INVALID' | 'EXPIRED'

export class LockdownLinks {
  readonly #key: Buffer

  /** `secret`: a server secret; the links' key is derived from it, for them alone. */
  constructor(secret: Uint8Array) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, '', 'finplatform lockdown links v1', 32))
  }

  mint(userId: string, channel: LinkChannel, now: Date): string {
    const signed = Buffer.alloc(SIGNED_LENGTH)
    signed.writeUInt8(VERSION, 0)
    signed.writeUInt8(LINK_CHANNELS.indexOf(channel), 1)
    signed.writeUInt32BE(Math.floor(now.getTime() / 1000) + LINK_TTL_SECONDS, 2)
    randomBytes(8).copy(signed, 6)
    Buffer.from(parseUuid(userId)).copy(signed, 14)
    return Buffer.concat([signed, this.#mac(signed)]).toString('base64url')
  }

  /** The token's person, channel and nonce, or why it cannot be used. */
  open(token: string, now: Date): OpenedLink | LinkRefusal {
    if (!/^[A-Za-z0-9_-]{62}$/.test(token)) return 'INVALID'
    const bytes = Buffer.from(token, 'base64url')
    if (bytes.length !== SIGNED_LENGTH + MAC_LENGTH) return 'INVALID'
    const signed = bytes.subarray(0, SIGNED_LENGTH)
    if (!timingSafeEqual(bytes.subarray(SIGNED_LENGTH), this.#mac(signed))) return 'INVALID'
    const channel = LINK_CHANNELS[signed.readUInt8(1)]
    if (signed.readUInt8(0) !== VERSION || !channel) return 'INVALID'
    if (signed.readUInt32BE(2) * 1000 <= now.getTime()) return 'EXPIRED'
    return {
      channel,
      nonce: signed.subarray(6, 14).toString('hex'),
      userId: stringifyUuid(signed.subarray(14, 30)),
    }
  }

  #mac(signed: Buffer): Buffer {
    return createHmac('sha256', this.#key).update(signed).digest().subarray(0, MAC_LENGTH)
  }
}
