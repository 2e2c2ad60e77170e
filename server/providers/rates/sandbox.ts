import { setTimeout as sleep } from 'node:timers/promises'
import { type RateQuote, type RatesProvider, RatesUnavailableError, ratio } from './rates.ts'

/**
 * Reference prices in micro-USD (1 USD = 1 000 000), around early 2025's
 * market, with how far each drifts either way in parts per million: coins
 * move by percents, stablecoins by hundredths of one, fiat in between.
 */
const REFERENCE: Record<string, { microUsd: bigint; swingPpm: number }> = {
  USD: { microUsd: 1_000_000n, swingPpm: 0 },
  BTC: { microUsd: 97_342_180_000n, swingPpm: 25_000 },
  ETH: { microUsd: 3_412_560_000n, swingPpm: 30_000 },
  TRX: { microUsd: 245_300n, swingPpm: 35_000 },
  POL: { microUsd: 452_100n, swingPpm: 40_000 },
  SOL: { microUsd: 187_640_000n, swingPpm: 40_000 },
  USDT: { microUsd: 1_000_000n, swingPpm: 400 },
  USDC: { microUsd: 999_900n, swingPpm: 300 },
  EUR: { microUsd: 1_083_400n, swingPpm: 3_000 },
  GBP: { microUsd: 1_271_900n, swingPpm: 3_500 },
}

export const SANDBOX_RATE_CODES = Object.keys(REFERENCE)

const MINUTE = 60_000

/** A phase per code from its letters, so coins do not all rise and fall together. */
const phase = (code: string) =>
  [...code].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) % 360

/**
 * The price of `code` in the minute starting at `minute` (ms since the epoch,
 * whole minutes): the reference moved by two slow sines, rounded to whole
 * parts per million so the rest is integer arithmetic. Deterministic — the
 * same minute gives the same price on every server and in every test — and
 * never negative: the swing stays far below 100 %.
 */
export function sandboxPriceMicroUsd(code: string, minute: number): bigint | undefined {
  const reference = REFERENCE[code]
  if (!reference) return undefined
  const m = Math.floor(minute / MINUTE)
  const p = (phase(code) * Math.PI) / 180
  const wave =
    0.7 * Math.sin((2 * Math.PI * m) / 360 + p) + 0.3 * Math.sin((2 * Math.PI * m) / 47 + 2 * p)
  const ppm = BigInt(Math.round(reference.swingPpm * wave))
  return (reference.microUsd * (1_000_000n + ppm)) / 1_000_000n
}

/**
 * The offline stand-in for a market-data vendor. Prices change once a minute
 * (as_of is the minute's start) and, like a real party, it answers after a
 * short delay.
 */
export class SandboxRates implements RatesProvider {
  readonly name = 'sandbox'

  constructor(
    private readonly options: { latencyMs: number; now?: () => number } = { latencyMs: 25 },
  ) {}

  async quote(base: string, codes: readonly string[]): Promise<RateQuote> {
    if (this.options.latencyMs > 0) await sleep(this.options.latencyMs)
    const now = this.options.now?.() ?? Date.now()
    const minute = now - (now % MINUTE)
    const basePrice = sandboxPriceMicroUsd(base, minute)
    if (basePrice === undefined)
      throw new RatesUnavailableError(`The sandbox has no price for ${base}.`)
    const rates = new Map<string, string>()
    for (const code of codes) {
      const price = sandboxPriceMicroUsd(code, minute)
      if (price !== undefined) rates.set(code, ratio(price, basePrice))
    }
    return { rates, asOf: new Date(minute) }
  }
}
