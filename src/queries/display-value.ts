import { type UseQueryResult, useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { RateList } from '../../contract/rates.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { formatMoney, type Money } from '../i18n/money.ts'
import { divideHalfEven, multiply, parseDecimal } from '../ui/decimal.ts'
import { type DisplayCurrency, useDisplayCurrency } from './display-currency.ts'
import { ratesQuery } from './wallets.ts'

/*
 * Apart from ./display-currency.ts, which the app reads at boot
 * (src/app/boot.ts): formatting and decimal arithmetic have no place in the
 * first download (issue 16).
 */

/** What one unit of `currency` is worth in the rates' base; undefined when they do not price it. */
const unitOf = (rates: RateList | undefined, currency: string): string | undefined =>
  rates?.rates.find((rate) => rate.code === currency)?.rate

/**
 * The rates (in RATES_BASE, one request whatever the currency) with the
 * display currency and its unit in their base: what every total and value
 * beside an amount is divided by. `unit` is undefined until the rates are in,
 * or when they do not price the currency.
 */
export function useDisplayRates(): {
  rates: UseQueryResult<RateList>
  currency: DisplayCurrency
  unit: string | undefined
} {
  const [currency] = useDisplayCurrency()
  const rates = useQuery(ratesQuery())
  return { rates, currency, unit: unitOf(rates.data, currency) }
}

/**
 * What an amount is worth in the display currency, formatted ("€98.15"), for
 * the secondary line beside a crypto amount (docs/experience.md, "Money on
 * screen"): amount × the server's rate over the currency's own, exact until
 * one half-even rounding to the cent. Undefined when it would say nothing new
 * (the amount is in the display currency) or cannot be said (no rate for the
 * code or the currency, rates not in yet).
 */
export function useDisplayValue(): (money: Money) => string | undefined {
  const { language } = useI18n()
  const { rates, currency, unit } = useDisplayRates()
  const data = rates.data
  return useCallback(
    (money: Money) => {
      if (!data || !unit || money.currency.toUpperCase() === currency) return undefined
      const rate = unitOf(data, money.currency)
      if (!rate) return undefined
      const worth = multiply(parseDecimal(money.amount), parseDecimal(rate))
      const value = divideHalfEven(worth, parseDecimal(unit), 2)
      return formatMoney(language, { amount: value, currency, chain: null })
    },
    [data, unit, currency, language],
  )
}
