/**
 * Exact decimal arithmetic over bigint, for amounts that are decimal strings
 * on the wire: `units / 10^scale`. Products and sums never round; only
 * `roundHalfEven` does, once, at the end. A float never holds money.
 */
export interface Decimal {
  units: bigint
  scale: number
}

const DECIMAL = /^([-+])?(\d+)(?:\.(\d*))?$/

/** "12.50" → { units: 1250n, scale: 2 }. */
export function parseDecimal(text: string): Decimal {
  const match = DECIMAL.exec(text.trim())
  if (!match) throw new RangeError(`"${text}" is not a decimal number`)
  const [, sign, whole, fraction = ''] = match
  const units = BigInt(whole! + fraction)
  return { units: sign === '-' ? -units : units, scale: fraction.length }
}

export const multiply = (a: Decimal, b: Decimal): Decimal => ({
  units: a.units * b.units,
  scale: a.scale + b.scale,
})

const rescale = (a: Decimal, scale: number) => a.units * 10n ** BigInt(scale - a.scale)

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale)
  return { units: rescale(a, scale) + rescale(b, scale), scale }
}

export const ZERO: Decimal = { units: 0n, scale: 0 }

/** `magnitude ÷ divisor` (both > 0 or magnitude 0) to a whole number, a tie to the even one. */
function halfEvenQuotient(magnitude: bigint, divisor: bigint): bigint {
  const quotient = magnitude / divisor
  const twice = (magnitude % divisor) * 2n
  return twice > divisor || (twice === divisor && quotient % 2n === 1n) ? quotient + 1n : quotient
}

/** `units / 10^places` as a string with exactly `places` places, never "-0.00". */
function format(units: bigint, places: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0')
  const whole = digits.slice(0, digits.length - places)
  const fraction = places > 0 ? `.${digits.slice(digits.length - places)}` : ''
  return `${negative && /[1-9]/.test(digits) ? '-' : ''}${whole}${fraction}`
}

/** Whole units of a signed `numerator / divisor` (divisor > 0), rounded half-even. */
function signedQuotient(numerator: bigint, divisor: bigint): bigint {
  const rounded = halfEvenQuotient(numerator < 0n ? -numerator : numerator, divisor)
  return numerator < 0n ? -rounded : rounded
}

/**
 * The decimal string with exactly `places` places, ties to the even neighbour
 * (banker's rounding: over many totals it rounds up as often as down).
 */
export function roundHalfEven(value: Decimal, places: number): string {
  if (value.scale <= places) return format(rescale(value, places), places)
  return format(signedQuotient(value.units, 10n ** BigInt(value.scale - places)), places)
}

/**
 * `a ÷ b` with exactly `places` places, exact until that one half-even
 * rounding: an amount in one currency over another's rate in the same base.
 * @throws RangeError when `b` is zero
 */
export function divideHalfEven(a: Decimal, b: Decimal, places: number): string {
  if (b.units === 0n) throw new RangeError('a division by zero')
  const sign = b.units < 0n ? -1n : 1n
  const numerator = sign * a.units * 10n ** BigInt(b.scale + places)
  return format(signedQuotient(numerator, sign * b.units * 10n ** BigInt(a.scale)), places)
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`, whatever their scales. */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale)
  const left = rescale(a, scale)
  const right = rescale(b, scale)
  return left < right ? -1 : left > right ? 1 : 0
}
