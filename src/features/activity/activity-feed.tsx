import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import type { ActivityItem } from '../../../contract/activity.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import {
  type ActivityFilters,
  activityFeedQuery,
  activityKeys,
  feedFilters,
} from '../../queries/activity.ts'
import { useBalancesFollow } from '../../queries/money-moved.ts'
import { Button, Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { ActivityIcon } from '../../ui/icons.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { ActivityRow } from './activity-row.tsx'
import { cachedItems, matches } from './offline-search.ts'
import './activity.css'
import { dayLabel, groupByDay, type Perspective } from './wording.ts'

/**
 * Items grouped by day ("Today", "Yesterday", "12 November"), newest first,
 * each a row. The day headings are one level under the section holding the
 * list (`level`).
 */
export function DayGroups(props: {
  items: readonly ActivityItem[]
  perspective?: Perspective
  level?: 2 | 3
}) {
  const { t, language } = useI18n()
  const baseId = useId()
  const now = new Date()
  const Heading = props.level === 2 ? 'h2' : 'h3'
  return (
    <div className="activity-days">
      {groupByDay(props.items).map((group) => {
        const id = `${baseId}-${group.day}`
        return (
          <section key={group.day} className="activity-day" aria-labelledby={id}>
            <Heading id={id} className="activity-day-title">
              {dayLabel(t, language, group.day, now)}
            </Heading>
            <ul className="activity-rows">
              {group.items.map((item) => (
                <li key={item.id}>
                  <ActivityRow item={item} perspective={props.perspective} />
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </div>
  )
}

/** A feed with nothing in it (yet): what will show here, and the one step that gets further. */
export function QuietStart(props: { text: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <span className="empty-state-icon" aria-hidden="true">
        <ActivityIcon />
      </span>
      <p className="muted">{props.text}</p>
      {props.children}
    </div>
  )
}

/**
 * A feed, page after page by the server's cursor: the next page loads when
 * the end of the list comes into view (and by a button, for keyboards and
 * when the observer is not there). Loaded pages are kept on the device, so
 * the feed reads offline; only more pages need the server.
 */
export function ActivityFeed(props: {
  filters: ActivityFilters
  perspective?: Perspective
  /** What an empty feed says, with the one way on. */
  empty: ReactNode
  level?: 2 | 3
}) {
  const { t } = useI18n()
  const server = useNeedsServer()
  const feed = useInfiniteQuery(activityFeedQuery(props.filters))
  const items = feed.data?.pages.flatMap((page) => page.data) ?? []
  useBalancesFollow(feed.data ? items : undefined)
  const end = useRef<HTMLDivElement>(null)

  const { hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError } = feed
  useEffect(() => {
    const sentinel = end.current
    if (!sentinel || !hasNextPage || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      // A page that failed waits for the button: no loop of failing reads.
      if (entries.some((entry) => entry.isIntersecting) && !isFetchNextPageError) {
        void fetchNextPage({ cancelRefetch: false })
      }
    })
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [hasNextPage, fetchNextPage, isFetchNextPageError])

  if (feed.isPending) {
    // Offline with a search this device never sent: search what it kept.
    if (feed.isPaused && Object.keys(feedFilters(props.filters)).length > 0) {
      return (
        <OfflineResults
          filters={props.filters}
          perspective={props.perspective}
          level={props.level}
        />
      )
    }
    return feed.isPaused ? (
      <Pending paused />
    ) : (
      <Skeleton label={t('activity.loading')} shape="rows" count={5} />
    )
  }
  if (feed.isError && items.length === 0) {
    return (
      <div className="stack">
        <ErrorSummary error={feed.error} />
        <div>
          <Button variant="secondary" onClick={() => feed.refetch()}>
            {t('error.retry')}
          </Button>
        </div>
      </div>
    )
  }
  if (items.length === 0) return <>{props.empty}</>
  return (
    <div className="stack activity-feed">
      <DayGroups items={items} perspective={props.perspective} level={props.level} />
      {isFetchNextPageError && <ErrorSummary error={feed.error} />}
      {hasNextPage && (
        <div ref={end} className="activity-more">
          <Button
            variant="secondary"
            busy={isFetchingNextPage}
            onClick={() => fetchNextPage()}
            {...server.disabledProps}
          >
            {isFetchingNextPage ? t('activity.loadingMore') : t('activity.more')}
          </Button>
          {server.reason}
        </div>
      )}
    </div>
  )
}

/**
 * Offline, a search or filter this device never sent is answered from what it
 * kept of the feed — and says so, since what it never read cannot be found.
 */
function OfflineResults(props: {
  filters: ActivityFilters
  perspective?: Perspective
  level?: 2 | 3
}) {
  const { t } = useI18n()
  const client = useQueryClient()
  const kept = client.getQueriesData({ queryKey: activityKeys.all }).map(([, data]) => data)
  const found = cachedItems(kept).filter((item) => matches(item, props.filters))
  return (
    <div className="stack activity-feed" data-testid="activity-offline-results">
      <p className="muted" role="status">
        {found.length > 0 ? t('activity.offlineSearch') : t('activity.offlineSearchNone')}
      </p>
      {found.length > 0 && (
        <DayGroups items={found} perspective={props.perspective} level={props.level} />
      )}
    </div>
  )
}
