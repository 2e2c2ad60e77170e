import type { ChartConfiguration } from 'chart.js'
import { useId } from 'react'
import { formatLocale } from '../../i18n/digits.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ChartCanvas, readingAxes, themeInk } from './chart-canvas.tsx'
import { Loading, type SpendingResult } from './insights-loading.tsx'

/** Spending and income of the last six months, as bars and as a table. */
export function Months(props: { query: SpendingResult; currency: string }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const data = props.query.data
  const money = (amount: string) =>
    formatMoney(language, { amount, currency: data?.currency ?? props.currency, chain: null })
  const label = (key: string) =>
    new Intl.DateTimeFormat(formatLocale(language), { month: 'short' }).format(
      new Date(`${key}-15T12:00:00`),
    )
  const config = ((): ChartConfiguration<'bar'> | undefined => {
    if (!data) return undefined
    const ink = themeInk()
    const axes = readingAxes()
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
          x: { ...axes.x, ticks: { color: ink.muted }, grid: { display: false } },
          y: {
            ...axes.y,
            // Chart geometry is in numbers; every figure a person reads is formatted from a string.
            ticks: { color: ink.muted, callback: (value) => money(Number(value).toFixed(2)) },
            grid: { color: ink.grid },
          },
        },
        plugins: {
          tooltip: {
            rtl: axes.rtl,
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
