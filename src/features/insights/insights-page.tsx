import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { formatLocale } from '../../i18n/digits.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { useDisplayCurrency } from '../../queries/display-currency.ts'
import { useOnline } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { Balances } from './balance-lines.tsx'
import { spendingQuery } from './queries.ts'
import { Categories } from './spending-categories.tsx'
import { Months } from './spending-months.tsx'
import { Merchants } from './top-merchants.tsx'
import './insights.css'

/** A month's start and the next month's, in this device's zone, as the API takes them. */
function monthBounds(year: number, month: number) {
  return {
    from: new Date(year, month, 1).toISOString(),
    to: new Date(year, month + 1, 1).toISOString(),
  }
}

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/**
 * /insights — where the money went: the month's spending by category (a
 * donut, and the same as a list), its top merchants, spending and income over
 * six months (bars), and each wallet's balance over the month (lines). In the
 * display currency; read from the device when offline.
 */
export default function InsightsPage() {
  const { t, language } = useI18n()
  const [currency] = useDisplayCurrency()
  const online = useOnline()
  const now = new Date()
  const [back, setBack] = useState(0)
  const shown = new Date(now.getFullYear(), now.getMonth() - back, 1)
  const month = monthBounds(shown.getFullYear(), shown.getMonth())
  const time_zone = zone()
  const sixMonths = {
    from: new Date(now.getFullYear(), now.getMonth() - 5, 1).toISOString(),
    to: monthBounds(now.getFullYear(), now.getMonth()).to,
  }
  const byCategory = useQuery(spendingQuery({ ...month, currency, time_zone, group: 'category' }))
  const byMerchant = useQuery(spendingQuery({ ...month, currency, time_zone, group: 'merchant' }))
  const byMonth = useQuery(spendingQuery({ ...sixMonths, currency, time_zone, group: 'month' }))
  const monthName = (date: Date) =>
    new Intl.DateTimeFormat(formatLocale(language), { month: 'long', year: 'numeric' }).format(date)

  return (
    <div className="stack insights-page">
      <PageHeader id="insights-title" title={t('insights.title')} lead={t('insights.lead')} />
      {!online && <p className="muted">{t('insights.offline')}</p>}
      <fieldset className="insights-month">
        <legend className="visually-hidden">{t('insights.month')}</legend>
        {[0, 1, 2].map((value) => {
          const date = new Date(now.getFullYear(), now.getMonth() - value, 1)
          return (
            <button
              key={value}
              type="button"
              className={value === back ? 'chip chip-on' : 'chip'}
              aria-pressed={value === back}
              onClick={() => setBack(value)}
            >
              {value === 0 ? t('insights.thisMonth') : monthName(date)}
            </button>
          )
        })}
      </fieldset>
      <div className="insights-grid">
        <Categories query={byCategory} currency={currency} />
        <Merchants query={byMerchant} currency={currency} />
        <Months query={byMonth} currency={currency} />
        <Balances from={month.from} to={month.to} currency={currency} timeZone={time_zone} />
      </div>
    </div>
  )
}
