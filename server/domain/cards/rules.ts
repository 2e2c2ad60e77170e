/**
 * Card issuing: the pure part. Card numbers (Luhn under the program's BIN),
 * expiry, the CVV derived from the card verification key, the card state
 * machine, limits, and the secret exchange's plaintext.
 */
import { createHmac, randomInt } from 'node:crypto'
import type { CardStatus, DeliveryStatus } from '../../../contract/cards.ts'

export const PAN_LENGTH = 16
/** A card is valid for this many years from the month it is issued in. */
export const EXPIRY_YEARS = 3

// ---------------------------------------------------------------------------
// Numbers

/** The Luhn check digit that completes `partial` (digits only). */
export function luhnCheckDigit(partial: string): number {
  let sum = 0
  // From the right, the digit next to the check digit is doubled first.
  for (let i = 0; i < partial.length; i++) {
    let digit = partial.charCodeAt(partial.length - 1 - i) - 48
    if (i % 2 === 0) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return (10 - (sum % 10)) % 10
}

/** True for a string of digits whose last digit is its Luhn check digit. */
export function isLuhnValid(number: string): boolean {
  if (!/^[0-9]{2,}$/.test(number)) return false
  return luhnCheckDigit(number.slice(0, -1)) === Number(number.at(-1))
}

/**
 * A 16-digit, Luhn-valid card number under `bin` (6 to 8 digits): the BIN,
 * random digits, the check digit. `digit` is the randomness (tests pass their own).
 */
export function generatePan(bin: string, digit: () => number = () => randomInt(10)): string {
  if (!/^[0-9]{6,8}$/.test(bin)) throw new Error(`invalid BIN "${bin}"`)
  let body = bin
  while (body.length < PAN_LENGTH - 1) body += String(digit())
  return body + String(luhnCheckDigit(body))
}

export interface Expiry {
  month: number
  year: number
}

/** A new card's expiry: the month of issue, EXPIRY_YEARS later (UTC). */
export const expiryFor = (issuedAt: Date): Expiry => ({
  month: issuedAt.getUTCMonth() + 1,
  year: issuedAt.getUTCFullYear() + EXPIRY_YEARS,
})

/** As printed on the card: "MM/YY". */
export const formatExpiry = ({ month, year }: Expiry): string =>
  `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`

/**
 * The CVV, derived as an issuer derives it from its card verification key:
 * HMAC-SHA256(CVK, "<PAN>|<MMYY>"), the first four bytes as an unsigned
 * number, modulo 1000, three digits. Never stored: derived again on each reveal.
 */
export function deriveCvv(cvk: Uint8Array, pan: string, expiry: Expiry): string {
  const mmyy = formatExpiry(expiry).replace('/', '')
  const mac = createHmac('sha256', cvk).update(`${pan}|${mmyy}`).digest()
  return String(mac.readUInt32BE(0) % 1000).padStart(3, '0')
}

// ---------------------------------------------------------------------------
// State machine

export type CardAction = 'freeze' | 'unfreeze' | 'close' | 'activate'

/**
 * freeze: ACTIVE → FROZEN; unfreeze: FROZEN → ACTIVE; close: anything but
 * CLOSED → CLOSED; activate: INACTIVE → ACTIVE (a delivered physical card,
 * which the service checks besides). Anything else is illegal: the card's
 * status says why.
 */
export function nextStatus(
  current: CardStatus,
  action: CardAction,
): { ok: true; status: CardStatus } | { ok: false; current: CardStatus } {
  switch (action) {
    case 'freeze':
      return current === 'ACTIVE' ? { ok: true, status: 'FROZEN' } : { ok: false, current }
    case 'unfreeze':
      return current === 'FROZEN' ? { ok: true, status: 'ACTIVE' } : { ok: false, current }
    case 'close':
      return current !== 'CLOSED' ? { ok: true, status: 'CLOSED' } : { ok: false, current }
    case 'activate':
      return current === 'INACTIVE' ? { ok: true, status: 'ACTIVE' } : { ok: false, current }
  }
}

// ---------------------------------------------------------------------------
// Activation tries

/** Wrong activation codes a card takes within ACTIVATION_WINDOW_MS before every try is refused. */
export const ACTIVATION_TRIES = 5
/** The window wrong codes are counted in, from the first wrong one. */
export const ACTIVATION_WINDOW_MS = 3_600_000

/** A card's wrong activation codes: how many since the window opened (null: none yet). */
export interface ActivationTries {
  failures: number
  since: Date | null
}

const windowOpen = (
  tries: ActivationTries,
  now: Date,
): tries is { failures: number; since: Date } =>
  tries.since !== null && now.getTime() - tries.since.getTime() < ACTIVATION_WINDOW_MS

/** Seconds until the card takes a try again, once ACTIVATION_TRIES wrong codes came within the window. */
export function activationRetryAfter(tries: ActivationTries, now: Date): number | undefined {
  if (!windowOpen(tries, now) || tries.failures < ACTIVATION_TRIES) return undefined
  const ends = tries.since.getTime() + ACTIVATION_WINDOW_MS
  return Math.max(1, Math.ceil((ends - now.getTime()) / 1000))
}

/** The count after one more wrong code: in the open window, or opening a new one now. */
export const afterWrongCode = (tries: ActivationTries, now: Date): ActivationTries =>
  windowOpen(tries, now)
    ? { failures: tries.failures + 1, since: tries.since }
    : { failures: 1, since: now }

// ---------------------------------------------------------------------------
// Delivery (PHYSICAL cards)

/** The sandbox courier's next step: ORDERED → SHIPPED → DELIVERED, then nothing. */
export const nextDelivery = (status: DeliveryStatus): DeliveryStatus | undefined =>
  status === 'ORDERED' ? 'SHIPPED' : status === 'SHIPPED' ? 'DELIVERED' : undefined

// ---------------------------------------------------------------------------
// Monthly fee

/**
 * The n-th monthly anniversary of `issuedAt` (UTC, same time of day): the
 * same day of the month n months on, or the month's last day when it is
 * shorter (issued on 31 January: 28/29 February, 31 March, 30 April …).
 */
export function anniversary(issuedAt: Date, n: number): Date {
  const year = issuedAt.getUTCFullYear()
  const month = issuedAt.getUTCMonth() + n
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(issuedAt.getUTCDate(), lastDay),
      issuedAt.getUTCHours(),
      issuedAt.getUTCMinutes(),
      issuedAt.getUTCSeconds(),
      issuedAt.getUTCMilliseconds(),
    ),
  )
}

/** How many monthly anniversaries of `issuedAt` have come by `now` (0 in the first month). */
export function anniversariesBy(issuedAt: Date, now: Date): number {
  let n =
    (now.getUTCFullYear() - issuedAt.getUTCFullYear()) * 12 +
    (now.getUTCMonth() - issuedAt.getUTCMonth())
  while (n > 0 && anniversary(issuedAt, n) > now) n--
  return Math.max(0, n)
}

/** A monthly fee's period: the 'YYYY-MM' its anniversary falls in. */
export const feePeriod = (at: Date): string =>
  `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`

// ---------------------------------------------------------------------------
// Limits

export interface LimitsMinor {
  per_transaction: bigint
  daily: bigint
  monthly: bigint
}

/** Until the holder sets their own: 1 000 per transaction, 2 500 a day, 10 000 a month (major units). */
export const defaultLimits = (decimals: number): LimitsMinor => {
  const unit = 10n ** BigInt(decimals)
  return { per_transaction: 1_000n * unit, daily: 2_500n * unit, monthly: 10_000n * unit }
}

/**
 * Whether `next` lets the card spend more than `current` in any window: the
 * second look guards raising a limit, never lowering one (route-policy.ts).
 */
export const raisesAny = (current: LimitsMinor, next: LimitsMinor) =>
  next.per_transaction > current.per_transaction ||
  next.daily > current.daily ||
  next.monthly > current.monthly

export interface FieldFault {
  field: keyof LimitsMinor
  message: string
}

/** Every amount positive, per_transaction ≤ daily ≤ monthly; each fault names its field. */
export function limitFaults(limits: LimitsMinor): FieldFault[] {
  const faults: FieldFault[] = []
  for (const field of ['per_transaction', 'daily', 'monthly'] as const) {
    if (limits[field] <= 0n) faults.push({ field, message: 'Must be more than 0.' })
  }
  if (faults.length > 0) return faults
  if (limits.per_transaction > limits.daily) {
    faults.push({ field: 'per_transaction', message: 'Must not exceed the daily limit.' })
  }
  if (limits.daily > limits.monthly) {
    faults.push({ field: 'daily', message: 'Must not exceed the monthly limit.' })
  }
  return faults
}

// ---------------------------------------------------------------------------
// Secret exchange

/** How far the client's timestamp may be from the server's clock, either way. */
export const SECRET_KEY_MAX_AGE_MS = 60_000

/**
 * The plaintext of an `encrypted_key` (contract/cards.ts SecretKeyBody):
 * `{"key":"<32 bytes, base64>","timestamp":<ms>}`. Undefined when it is not that.
 */
export function parseExchangePlaintext(
  plaintext: Uint8Array,
): { key: Buffer; timestamp: number } | undefined {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(plaintext).toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const { key, timestamp } = value as Record<string, unknown>
  if (typeof key !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(key)) return undefined
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp)) return undefined
  const bytes = Buffer.from(key, 'base64')
  if (bytes.length !== 32) return undefined
  return { key: bytes, timestamp }
}

/** A client's timestamp is fresh when within SECRET_KEY_MAX_AGE_MS of now, either way. */
export const isFresh = (timestamp: number, now: number): boolean =>
  Math.abs(now - timestamp) <= SECRET_KEY_MAX_AGE_MS

// ---------------------------------------------------------------------------
// One-time codes

export const CARD_OTP_TTL_MS = 5 * 60_000

/** Six random digits. */
export const generateOtp = (): string => String(randomInt(1_000_000)).padStart(6, '0')
