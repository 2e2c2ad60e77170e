import type { Rate } from '../../../contract/rates.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import {
  add,
  type Decimal,
  divideHalfEven,
  multiply,
  parseDecimal,
  ZERO,
} from '../../ui/decimal.ts'
import { isZero } from './balance-list.tsx'

export interface Total {
  /** The sum in the display currency, rounded half-even to 2 places ("1234.57"). */
  amount: string
  /** Codes held (not zero) that have no rate, in the order first met: they are not in `amount`. */
  unpriced: string[]
}

/** Display currencies (USD, EUR, GBP) all have two minor digits. */
const PLACES = 2

/**
 * Every wallet's available balances × their code's rate, summed exactly, over
 * `unit` — what one unit of the display currency is worth in the rates' base
 * ("1.0834" for euros in USD rates; "1" when they are the same) — and rounded
 * once: rounding each line first would let a hundred lines drift the total by
 * up to half a cent each. Pending amounts are not money one has yet.
 */
export function totalBalance(
  wallets: readonly Wallet[],
  rates: readonly Rate[],
  unit = '1',
): Total {
  const rateOf = new Map(rates.map((rate) => [rate.code, parseDecimal(rate.rate)]))
  let sum: Decimal = ZERO
  const unpriced: string[] = []
  for (const wallet of wallets) {
    for (const balance of wallet.balances) {
      if (isZero(balance.available)) continue
      const rate = rateOf.get(balance.currency)
      if (rate === undefined) {
        if (!unpriced.includes(balance.currency)) unpriced.push(balance.currency)
        continue
      }
      sum = add(sum, multiply(parseDecimal(balance.available), rate))
    }
  }
  return { amount: divideHalfEven(sum, parseDecimal(unit), PLACES), unpriced }
}
