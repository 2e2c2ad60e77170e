import { useQuery } from '@tanstack/react-query'
import type { ChartConfiguration } from 'chart.js'
import { useId } from 'react'
import type { Wallet } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { walletName } from '../../i18n/wallet-names.ts'
import { walletsQuery } from '../../queries/wallets.ts'
import { Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { ChartCanvas, readingAxes, themeInk } from './chart-canvas.tsx'
import { Loading } from './insights-loading.tsx'
import { balanceHistoryQuery } from './queries.ts'

/** Each wallet's balance over the month, in the display currency at today's rates. */
export function Balances(props: {
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

/** One wallet's line: its name, its balance now, and the month's chart of it. */
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
    const axes = readingAxes()
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
          x: { ...axes.x, ticks: { color: ink.muted, maxTicksLimit: 6 }, grid: { display: false } },
          y: {
            ...axes.y,
            ticks: {
              color: ink.muted,
              callback: (value) => money(Number(value).toFixed(2)),
              maxTicksLimit: 4,
            },
            grid: { color: ink.grid },
          },
        },
        plugins: {
          tooltip: {
            rtl: axes.rtl,
            callbacks: { label: (item) => money(points[item.dataIndex]!.balance) },
          },
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
