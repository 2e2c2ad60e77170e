import { useQuery } from '@tanstack/react-query'
import type { ChartConfiguration } from 'chart.js'
import { useId, useState } from 'react'
import type { SpendingGroup, SpendingInsights } from '../../../contract/insights.ts'
import {
  MERCHANT_CATEGORIES,
  type MerchantCategoryGroup,
} from '../../../contract/merchant-categories.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import { amountsHidden } from '../../i18n/hidden-amounts.ts'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { walletName } from '../../i18n/wallet-names.ts'
import { useDisplayCurrency } from '../../queries/display-currency.ts'
import { walletsQuery } from '../../queries/wallets.ts'
import { Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useOnline } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { ChartCanvas, themeInk } from './chart-canvas.tsx'
import { balanceHistoryQuery, spendingQuery } from './queries.ts'
import './insights.css'

/** A month's start and the next month's, in this device's zone, as the API takes them. */
function monthBounds(year: number, month: number) {
  return {
    from: new Date(year, month, 1).toISOString(),
    to: new Date(year, month + 1, 1).toISOString(),
  }
}

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

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
  return language === 'ru' ? group.names.ru : group.names.en
}

/** "+12.5 %" / "−8.0 %" against the period before; nothing when there was none. */
function change(language: Language, percent: string | null): string | undefined {
  if (percent === null) return undefined
  const negative = percent.startsWith('-')
  const figure = new Intl.NumberFormat(language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(Number(percent.replace('-', '')))
  return `${negative ? '−' : '+'}${figure} %`
}

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
    new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }).format(date)

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

type SpendingResult = ReturnType<typeof useQuery<SpendingInsights>>

function Loading(props: {
  query: SpendingResult | { isPending: boolean; isError: boolean; error: unknown }
}) {
  const { t } = useI18n()
  if (props.query.isError) return <ErrorSummary error={props.query.error} />
  return <Skeleton label={t('insights.loading')} shape="rows" count={3} />
}

/** The month's spending by category: the total, its change, a donut, and the list it draws. */
function Categories(props: { query: SpendingResult; currency: string }) {
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

/** "1 payment", "3 payments"; Russian has its own three forms. */
function payments(t: ReturnType<typeof useI18n>['t'], language: Language, count: number): string {
  const category = new Intl.PluralRules(language).select(count)
  const form = category === 'one' || category === 'few' || category === 'many' ? category : 'other'
  return t(`insights.payments_${form}`, { count })
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

/** The month's biggest payees and merchants. */
function Merchants(props: { query: SpendingResult; currency: string }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const data = props.query.data
  const top: SpendingGroup[] = data?.groups.slice(0, 5) ?? []
  return (
    <section className="card stack insights-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('insights.merchants')}</h2>
      {!data ? (
        <Loading query={props.query} />
      ) : top.length === 0 ? (
        <p className="muted">{t('insights.nothing')}</p>
      ) : (
        <ol className="insights-merchants">
          {top.map((group) => (
            <li key={group.key}>
              <span className="insights-name">{group.key}</span>
              <span className="muted">{payments(t, language, group.count)}</span>
              <span className="insights-amount">
                {formatMoney(language, {
                  amount: group.spending,
                  currency: data.currency,
                  chain: null,
                })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** Spending and income of the last six months, as bars and as a table. */
function Months(props: { query: SpendingResult; currency: string }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const data = props.query.data
  const money = (amount: string) =>
    formatMoney(language, { amount, currency: data?.currency ?? props.currency, chain: null })
  const label = (key: string) =>
    new Intl.DateTimeFormat(language, { month: 'short' }).format(new Date(`${key}-15T12:00:00`))
  const config = ((): ChartConfiguration<'bar'> | undefined => {
    if (!data) return undefined
    const ink = themeInk()
    return {
      type: 'bar',
      data: {
        labels: data.groups.map((group) => label(group.key)),
        datasets: [
          {
            label: t('insights.spent'),
            data: data.groups.map((g) => Number(g.spending)),
            backgroundColor: '#5b6cff',
          },
          {
            label: t('insights.received'),
            data: data.groups.map((g) => Number(g.income)),
            backgroundColor: '#2f9e6e',
          },
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { ticks: { color: ink.muted }, grid: { display: false } },
          y: {
            // Chart geometry is in numbers; every figure a person reads is formatted from a string.
            ticks: { color: ink.muted, callback: (value) => money(Number(value).toFixed(2)) },
            grid: { color: ink.grid },
          },
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => {
                const group = data.groups[item.dataIndex]!
                return `${item.dataset.label}: ${money(item.datasetIndex === 0 ? group.spending : group.income)}`
              },
            },
          },
        },
      },
    }
  })()
  return (
    <section className="card stack insights-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('insights.months')}</h2>
      {!data || !config ? (
        <Loading query={props.query} />
      ) : (
        <>
          <ChartCanvas
            config={config}
            signature={`${language}:${props.currency}:${JSON.stringify(data.groups)}`}
            height={200}
            label={t('insights.barsLabel')}
            testId="insights-bars"
          />
          <table className="visually-hidden">
            <caption>{t('insights.months')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.month')}</th>
                <th scope="col">{t('insights.spent')}</th>
                <th scope="col">{t('insights.received')}</th>
              </tr>
            </thead>
            <tbody>
              {data.groups.map((group) => (
                <tr key={group.key}>
                  <th scope="row">{label(group.key)}</th>
                  <td>{money(group.spending)}</td>
                  <td>{money(group.income)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}

/** Each wallet's balance over the month, in the display currency at today's rates. */
function Balances(props: {
  from: string
  to: string
  currency: 'USD' | 'EUR' | 'GBP'
  timeZone: string
}) {
  const { t } = useI18n()
  const titleId = useId()
  const wallets = useQuery(walletsQuery())
  const list = wallets.data?.data ?? []
  return (
    <section className="card stack insights-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('insights.balances')}</h2>
      {wallets.isPending ? (
        <Loading query={wallets} />
      ) : list.length === 0 ? (
        <p className="muted">{t('insights.nothing')}</p>
      ) : (
        list.map((wallet) => <WalletLine key={wallet.uuid} wallet={wallet} {...props} />)
      )}
    </section>
  )
}

function WalletLine(props: {
  wallet: Pick<Wallet, 'uuid' | 'type'>
  from: string
  to: string
  currency: 'USD' | 'EUR' | 'GBP'
  timeZone: string
}) {
  const { t, language } = useI18n()
  const history = useQuery(
    balanceHistoryQuery({
      wallet_uuid: props.wallet.uuid,
      from: props.from,
      to: props.to,
      currency: props.currency,
      time_zone: props.timeZone,
      interval: 'day',
    }),
  )
  const name = walletName(t, props.wallet)
  const points = history.data?.total?.points ?? []
  const money = (amount: string) =>
    formatMoney(language, { amount, currency: props.currency, chain: null })
  const config = ((): ChartConfiguration<'line'> | undefined => {
    if (points.length === 0) return undefined
    const ink = themeInk()
    return {
      type: 'line',
      data: {
        labels: points.map((point) => point.date.slice(8)),
        datasets: [
          {
            label: name,
            data: points.map((point) => Number(point.balance)),
            borderColor: '#5b6cff',
            backgroundColor: 'rgb(91 108 255 / 12%)',
            fill: true,
            pointRadius: 0,
            tension: 0.25,
          },
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { ticks: { color: ink.muted, maxTicksLimit: 6 }, grid: { display: false } },
          y: {
            ticks: {
              color: ink.muted,
              callback: (value) => money(Number(value).toFixed(2)),
              maxTicksLimit: 4,
            },
            grid: { color: ink.grid },
          },
        },
        plugins: {
          tooltip: { callbacks: { label: (item) => money(points[item.dataIndex]!.balance) } },
        },
      },
    }
  })()
  const last = points.at(-1)
  return (
    <div className="stack insights-wallet">
      <p className="row insights-wallet-head">
        <span className="insights-name">{name}</span>
        {last && <span className="insights-amount">{money(last.balance)}</span>}
      </p>
      {history.isError ? (
        <ErrorSummary error={history.error} />
      ) : !config ? (
        history.isPending ? (
          <Skeleton label={t('insights.loading')} shape="rows" count={1} />
        ) : null
      ) : (
        <ChartCanvas
          config={config}
          signature={`${language}:${props.currency}:${JSON.stringify(points)}`}
          height={120}
          label={t('insights.lineLabel', { wallet: name })}
          testId="insights-line"
        />
      )}
    </div>
  )
}
