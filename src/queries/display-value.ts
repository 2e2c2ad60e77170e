import { useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { formatMoney, type Money } from '../i18n/money.ts'
import { multiply, parseDecimal, roundHalfEven } from '../ui/decimal.ts'
import { useDisplayCurrency } from './display-currency.ts'
import { ratesQuery } from './wallets.ts'

/*
 * Apart from ./display-currency.ts, which the app reads at boot
 * (src/app/boot.ts): formatting and decimal arithmetic have no place in the
 * first download (issue 16).
 */

/**
 * What an amount is worth in the display currency, formatted ("€98.15"), for
 * the secondary line beside a crypto amount (EXPERIENCE.md, "Money on
 * screen"): amount × the server's rate, exact until one half-even rounding to
 * the cent. Undefined when it would say nothing new (the amount is in the
 * display currency) or cannot be said (no rate for the code, rates not in yet).
 */
export function useDisplayValue(): (money: Money) => string | undefined {
  const { language } = useI18n()
  const [currency] = useDisplayCurrency()
  const rates = useQuery(ratesQuery(currency))
  const data = rates.data
  return useCallback(
    (money: Money) => {
      if (!data || money.currency.toUpperCase() === data.base) return undefined
      const rate = data.rates.find((candidate) => candidate.code === money.currency)
      if (!rate) return undefined
      const value = roundHalfEven(multiply(parseDecimal(money.amount), parseDecimal(rate.rate)), 2)
      return formatMoney(language, { amount: value, currency: data.base, chain: null })
    },
    [data, language],
  )
}
