/** Prices of the catalogue's currencies taken at one moment. */
export interface RateQuote {
  /**
   * Code → units of the base per 1 unit of the code, as a decimal string.
   * A code the provider has no price for is absent, never zero.
   */
  rates: Map<string, string>
  asOf: Date
}

/** Exchange rates for display. One interface; the sandbox and real adapters sit behind it. */
export interface RatesProvider {
  /** Which adapter this is ("sandbox"), for logs and the vendors list. */
  readonly name: string
  /**
   * @throws RatesUnavailableError when the provider cannot price the base or cannot be reached
   */
  quote(base: string, codes: readonly string[]): Promise<RateQuote>
  /** Releases connections; called when the app closes. */
  close?(): Promise<void>
}

/** The provider gave no prices: the caller shows none rather than made-up ones. */
export class RatesUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'RatesUnavailableError'
  }
}

/** Places a published rate has at most: enough for TRX in GBP (≈0.19) to keep 7 significant digits. */
export const RATE_SCALE = 8

/**
 * numerator / denominator as a decimal string rounded to `scale` places —
 * half-even (a published price), or `down` (a rate the platform quotes: never
 * in the customer's favour) — trailing zeros trimmed down to two places
 * ("97342.18", "0.2453", "1.00"). Integer division only: prices held as
 * bigint micro-units cross into any base without a float touching the value.
 */
export function ratio(
  numerator: bigint,
  denominator: bigint,
  scale = RATE_SCALE,
  rounding: 'half-even' | 'down' = 'half-even',
): string {
  if (denominator <= 0n || numerator < 0n) throw new RangeError('ratio of non-negative by positive')
  const scaled = numerator * 10n ** BigInt(scale)
  let quotient = scaled / denominator
  const twice = (scaled % denominator) * 2n
  const up = twice > denominator || (twice === denominator && quotient % 2n === 1n)
  if (rounding === 'half-even' && up) quotient += 1n
  const digits = quotient.toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits
    .slice(digits.length - scale)
    .replace(/0+$/, '')
    .padEnd(2, '0')
  return `${whole}.${fraction}`
}
