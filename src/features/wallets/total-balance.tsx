import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import {
  DISPLAY_CURRENCIES,
  type DisplayCurrency,
  useDisplayCurrency,
} from '../../queries/display-currency.ts'
import { useDisplayRates } from '../../queries/display-value.ts'
import { Pending } from '../../ui/online.tsx'
import { walletsQuery } from './queries.ts'
import { totalBalance } from './total.ts'

/**
 * Everything in the wallets, converted to the person's display currency with
 * the server's rates: approximate (rates move), so marked "≈" with the rates'
 * time. Offline it is computed from the stored wallets and rates, in any of
 * the currencies (they are all worked out from the one base asked for).
 */
export function TotalBalance() {
  const { t, language } = useI18n()
  const [, setCurrency] = useDisplayCurrency()
  const wallets = useQuery(walletsQuery())
  const { rates, currency, unit } = useDisplayRates()
  const titleId = useId()
  const selectId = useId()

  let body: ReactNode
  // Rates that do not price the display currency cannot total in it.
  if (wallets.isError || rates.isError || (rates.data && !unit)) {
    body = <p className="muted">{t('total.unavailable')}</p>
  } else if (wallets.isPending || rates.isPending) {
    body =
      wallets.isPaused || rates.isPaused ? (
        <Pending paused />
      ) : (
        <div className="skeleton-total" role="status" aria-label={t('total.loading')} />
      )
  } else {
    const total = totalBalance(wallets.data.data, rates.data.rates, unit)
    const amount = formatMoney(language, { amount: total.amount, currency, chain: null })
    body = (
      <>
        <p className="total-amount" data-testid="total-balance">
          <span aria-hidden="true">{t('total.approx', { amount })}</span>
          <span className="visually-hidden">{t('total.approxLabel', { amount })}</span>
        </p>
        <p className="muted total-meta">
          {t('total.asOf', { time: formatDateTime(language, rates.data.as_of) })}
        </p>
        {total.unpriced.length > 0 && (
          <p className="muted" data-testid="total-unpriced">
            {t('total.unpriced', { codes: total.unpriced.join(', ') })}
          </p>
        )}
      </>
    )
  }

  return (
    <section className="card stack total-card" aria-labelledby={titleId}>
      <div className="row total-header">
        <h2 id={titleId}>{t('total.title')}</h2>
        <label htmlFor={selectId} className="visually-hidden">
          {t('total.currency')}
        </label>
        <select
          id={selectId}
          className="total-currency"
          value={currency}
          onChange={(event) => setCurrency(event.target.value as DisplayCurrency)}
        >
          {DISPLAY_CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </div>
      {body}
    </section>
  )
}
