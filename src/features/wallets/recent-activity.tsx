import { useQueries, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { href } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Skeleton } from '../../ui/components.tsx'
import { currenciesQuery, RECENT_COUNT, recentQuery, walletsQuery } from './queries.ts'
import { TransactionSummary } from './transaction-summary.tsx'

/**
 * The newest transactions across every wallet: each wallet's newest few,
 * merged by time. A wallet whose answer is not in yet simply adds nothing.
 */
export function RecentActivity() {
  const { t } = useI18n()
  const wallets = useQuery(walletsQuery())
  const currencies = useQuery(currenciesQuery())
  const recents = useQueries({
    queries: (wallets.data?.data ?? []).map((wallet) => recentQuery(wallet.uuid)),
  })
  const decimals = new Map(currencies.data?.data.map((c) => [c.code, c.decimals]))

  const rows = recents
    .flatMap((recent) => recent.data?.data ?? [])
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.uuid.localeCompare(a.uuid))
    .slice(0, RECENT_COUNT)
  const loading = wallets.isPending || recents.some((recent) => recent.isPending)

  return (
    <section className="card stack" aria-labelledby="recent-title">
      <div className="card-header">
        <h2 id="recent-title">{t('home.recentActivity')}</h2>
        {rows.length > 0 && <Link href={href.activity()}>{t('home.seeAll')}</Link>}
      </div>
      {rows.length > 0 ? (
        <ul className="recent-rows">
          {rows.map((row) => (
            <li key={row.uuid} className="history-row" data-testid="recent-row">
              <TransactionSummary row={row} decimals={decimals.get(row.currency) ?? 2} />
            </li>
          ))}
        </ul>
      ) : loading ? (
        <Skeleton label={t('app.loading')} shape="rows" count={RECENT_COUNT} />
      ) : (
        <p className="muted">{t('home.noActivity')}</p>
      )}
    </section>
  )
}
