import { parseDecimal } from '../../ui/decimal.ts'

/**
 * A bound on an amount as people read it: "From 5.01 USDT to 100,016.70
 * USDT", not the server's exact "5.000836 … 100,016.702789" (a coin's bounds
 * are a USD range converted at the day's price). At or above one unit a bound
 * keeps the places the currency is read in — fiat's minor units, two for a
 * coin or token; below one, its first two significant digits. The minimum
 * rounds up and the maximum down, so an amount between the two shown is one
 * the server takes. Never a float.
 */
export function shownBound(
  amount: string,
  currency: { decimals: number; fiat: boolean },
  way: 'min' | 'max',
): string {
  const value = parseDecimal(amount)
  if (value.units <= 0n) return amount
  const digits = value.units.toString().padStart(value.scale + 1, '0')
  const whole = digits.slice(0, digits.length - value.scale)
  const fraction = digits.slice(digits.length - value.scale)
  const leadingZeros = fraction.length - fraction.replace(/^0+/, '').length
  const wanted = currency.fiat ? currency.decimals : whole !== '0' ? 2 : leadingZeros + 2
  const places = Math.min(wanted, currency.decimals, value.scale)
  const drop = value.scale - places
  const divisor = 10n ** BigInt(drop)
  let units = value.units / divisor
  if (way === 'min' && value.units % divisor !== 0n) units += 1n
  const text = units.toString().padStart(places + 1, '0')
  return places > 0 ? `${text.slice(0, -places)}.${text.slice(-places)}` : text
}

/** A decimal string in whole minor units of `decimals`, cut towards zero. */
const minor = (amount: string, decimals: number) => {
  const value = parseDecimal(amount)
  return value.scale <= decimals
    ? value.units * 10n ** BigInt(decimals - value.scale)
    : value.units / 10n ** BigInt(value.scale - decimals)
}
const decimal = (units: bigint, decimals: number) => {
  const text = units.toString().padStart(decimals + 1, '0')
  return decimals > 0 ? `${text.slice(0, -decimals)}.${text.slice(-decimals)}` : text
}

/**
 * The most a wallet's `available` pays for with the fees on top — a fixed
 * fee, a network fee, and a percentage the server rounds up to a whole minor
 * unit (so one unit is kept back for it) — capped at the direction's maximum:
 * what "Max" fills in. Undefined when the fees leave nothing.
 */
export function maxPayable(
  available: string,
  fees: { fixed: string; percent: string; network: string | null },
  decimals: number,
  max: string,
): string | undefined {
  const percent = parseDecimal(fees.percent)
  const hundred = 100n * 10n ** BigInt(percent.scale)
  const left =
    minor(available, decimals) - minor(fees.fixed, decimals) - minor(fees.network ?? '0', decimals)
  let most = (left * hundred) / (hundred + percent.units)
  if (percent.units > 0n) most -= 1n
  const cap = minor(max, decimals)
  if (cap > 0n && most > cap) most = cap
  return most > 0n ? decimal(most, decimals) : undefined
}
