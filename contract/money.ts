import { Type } from '@sinclair/typebox'

/**
 * Money on the wire is a decimal string ("12.50", "0.00012345"); in the
 * database NUMERIC; in arithmetic a bigint count of minor units at the
 * currency's decimals. A float never holds money.
 */
export const Amount = Type.String({
  pattern: '^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$',
  description: 'A non-negative decimal amount as a string, e.g. "12.50"',
})

export class AmountError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AmountError'
  }
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/

/** "12.5" at 2 decimals → 1250n. More decimals than the currency has is an error, never a rounding. */
export function toMinor(amount: string, decimals: number): bigint {
  const match = DECIMAL.exec(amount.trim())
  if (!match) throw new AmountError(`"${amount}" is not a decimal amount`)
  const [, sign, whole, fraction = ''] = match
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > decimals) {
    throw new AmountError(`"${amount}" has more than ${decimals} decimal places`)
  }
  const minor = BigInt(whole! + fraction.padEnd(decimals, '0').slice(0, decimals))
  return sign ? -minor : minor
}

/** 1250n at 2 decimals → "12.50": always exactly `decimals` places, as NUMERIC prints it. */
export function fromMinor(minor: bigint, decimals: number): string {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals)
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`
}
