import type { ChartConfiguration } from 'chart.js'
import { useId } from 'react'
import type { SpendingInsights } from '../../../contract/insights.ts'
import {
  MERCHANT_CATEGORIES,
  type MerchantCategoryGroup,
} from '../../../contract/merchant-categories.ts'
import { formatLocale } from '../../i18n/digits.ts'
import { amountsHidden } from '../../i18n/hidden-amounts.ts'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney, ltrIsland } from '../../i18n/money.ts'
import { ChartCanvas } from './chart-canvas.tsx'
import { Loading, type SpendingResult } from './insights-loading.tsx'

/** One hue per category: distinct in light and dark, and the same everywhere it appears. */
const CATEGORY_COLOURS: Record<string, string> = {
  groceries: '#2f9e6e',
  restaurants: '#e8833a',
  transport: '#3b82c4',
  shopping: '#a05cd6',
  entertainment: '#d6457a',
  travel: '#1aa3a3',
  utilities: '#c9a227',
  health: '#e05b5b',
  cash: '#7d8597',
  crypto: '#f2a900',
  gambling: '#8d6e63',
  adult: '#b0607a',
  other: '#9aa3ba',
  transfers: '#5b6cff',
  fees: '#6c7a89',
}

/** A category in the person's words: the contract's names (issue 30's too), or ours for transfers and fees. */
function categoryName(t: ReturnType<typeof useI18n>['t'], language: Language, key: string): string {
  if (key === 'transfers') return t('insights.category.transfers')
  if (key === 'fees') return t('insights.category.fees')
  const group = MERCHANT_CATEGORIES[key as MerchantCategoryGroup]
  if (!group) return key
  return group.names[language]
}

/** "+12.5 %" / "−8.0 %" against the period before; nothing when there was none. */
function change(language: Language, percent: string | null): string | undefined {
  if (percent === null) return undefined
  const negative = percent.startsWith('-')
  const figure = new Intl.NumberFormat(formatLocale(language), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(Number(percent.replace('-', '')))
  return ltrIsland(language, `${negative ? '−' : '+'}${figure} %`)
}

/** The period's change against the one before, from the totals. */
function percentOf(data: SpendingInsights): string | null {
  const cents = (amount: string) => BigInt(amount.replace('.', ''))
  const before = cents(data.previous_spending)
  if (before === 0n) return null
  const tenths = ((cents(data.spending) - before) * 1000n) / before
  const sign = tenths < 0n ? '-' : ''
  const magnitude = tenths < 0n ? -tenths : tenths
  return `${sign}${magnitude / 10n}.${magnitude % 10n}`
}

/** The month's spending by category: the total, its change, a donut, and the list it draws. */
export function Categories(props: { query: SpendingResult; currency: string }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const data = props.query.data
  // In the currency the answer is in (the display currency it was asked in).
  const money = (amount: string) =>
    formatMoney(language, { amount, currency: data?.currency ?? props.currency, chain: null })
  const config = ((): ChartConfiguration<'doughnut'> | undefined => {
    if (!data || data.groups.length === 0) return undefined
    return {
      type: 'doughnut',
      data: {
        labels: data.groups.map((group) => categoryName(t, language, group.key)),
        datasets: [
          {
            data: data.groups.map((group) => Number(group.spending)),
            backgroundColor: data.groups.map((group) => CATEGORY_COLOURS[group.key] ?? '#9aa3ba'),
            borderWidth: 0,
          },
        ],
      },
      options: {
        cutout: '68%',
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => `${item.label}: ${money(data.groups[item.dataIndex]!.spending)}`,
            },
          },
        },
      },
    }
  })()

  return (
    <section className="card stack insights-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('insights.spending')}</h2>
      {!data ? (
        <Loading query={props.query} />
      ) : (
        <>
          <p className="insights-total" data-testid="insights-spending">
            {money(data.spending)}
            {/* A change in percent tells about the amounts: hidden with them. */}
            {!amountsHidden() && change(language, percentOf(data)) && (
              <span className="muted insights-change">
                {t('insights.change', { change: change(language, percentOf(data))! })}
              </span>
            )}
          </p>
          <p className="muted">{t('insights.income', { amount: money(data.income) })}</p>
          {data.groups.length === 0 ? (
            <p className="muted">{t('insights.nothing')}</p>
          ) : (
            <div className="insights-donut">
              {config && (
                <ChartCanvas
                  config={config}
                  signature={`${language}:${props.currency}:${JSON.stringify(data.groups)}`}
                  height={180}
                  label={t('insights.donutLabel')}
                  testId="insights-donut"
                />
              )}
              <ul className="insights-legend">
                {data.groups.map((group) => (
                  <li key={group.key}>
                    <span
                      className="insights-swatch"
                      style={{ background: CATEGORY_COLOURS[group.key] ?? '#9aa3ba' }}
                      aria-hidden="true"
                    />
                    <span className="insights-name">{categoryName(t, language, group.key)}</span>
                    <span className="insights-amount">{money(group.spending)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {data.rate_basis !== 'none' && (
            <p className="muted insights-note">{t(`insights.rates.${data.rate_basis}`)}</p>
          )}
        </>
      )}
    </section>
  )
}
