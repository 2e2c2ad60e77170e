import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import { Link } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { type ActivityFilters, recentActivityQuery } from '../../queries/activity.ts'
import { useBalancesFollow } from '../../queries/money-moved.ts'
import { Button, buttonClass, Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { DayGroups, QuietStart } from './activity-feed.tsx'
import './activity.css'
import type { Perspective } from './wording.ts'

/** How many items home and a wallet's page show: what happened lately, at a glance. */
export const RECENT_COUNT = 6

/**
 * The newest few items of a feed in a card, by day, with "See all" leading to
 * the Activity tab narrowed the same way: home's "what happened", a wallet's
 * history.
 */
export function ActivityCard(props: {
  title: string
  filters?: ActivityFilters
  perspective?: Perspective
  /** The Activity tab's address showing the rest. */
  seeAll: string
  /** What an empty feed says, and its one way on. */
  empty: ReactNode
  /** Beside "See all": the CSV export. */
  actions?: ReactNode
  count?: number
}) {
  const { t } = useI18n()
  const titleId = useId()
  const recent = useQuery(recentActivityQuery(props.filters, props.count ?? RECENT_COUNT))
  const items = recent.data?.data ?? []
  useBalancesFollow(recent.data?.data)

  return (
    <section className="card stack recent-activity" aria-labelledby={titleId}>
      <div className="card-header">
        <h2 id={titleId}>{props.title}</h2>
        {items.length > 0 && <Link href={props.seeAll}>{t('home.seeAll')}</Link>}
      </div>
      {recent.isPending ? (
        recent.isPaused ? (
          <Pending paused />
        ) : (
          <Skeleton label={t('activity.loading')} shape="rows" count={4} />
        )
      ) : recent.isError && items.length === 0 ? (
        <div className="stack">
          <ErrorSummary error={recent.error} />
          <div>
            <Button variant="secondary" onClick={() => recent.refetch()}>
              {t('error.retry')}
            </Button>
          </div>
        </div>
      ) : items.length === 0 ? (
        props.empty
      ) : (
        <DayGroups items={items} perspective={props.perspective} />
      )}
      {props.actions}
    </section>
  )
}

/** Home's "what happened": across every wallet, card and account. */
export function RecentActivity() {
  const { t } = useI18n()
  return (
    <ActivityCard
      title={t('home.recentActivity')}
      seeAll={href.activity()}
      empty={
        <QuietStart text={t('activity.emptyHome')}>
          <Link href={href.deposit()} className={buttonClass('secondary')}>
            {t('steps.addMoney')}
          </Link>
        </QuietStart>
      }
    />
  )
}
