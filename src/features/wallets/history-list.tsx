import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { TransactionSummary } from './transaction-summary.tsx'

/** Every row is this tall (CSS .history-row): fixed rows need no measuring while scrolling. */
export const ROW_HEIGHT = 64

export interface HistoryListProps {
  rows: WalletTransaction[]
  /** The whole list's length; undefined until known (its last page is loaded). */
  total: number | undefined
  decimalsOf: (currency: string) => number
  hasNextPage: boolean
  isFetchingNextPage: boolean
  fetchNextPage: () => void
}

/**
 * The history, virtualised: only the rows in view (and a few beyond) are in
 * the DOM, so 10 000 rows scroll like 10. Reaching the last loaded row asks
 * for the next page. Each row says where it sits in the whole list
 * (aria-posinset/setsize, -1 while its length is unknown), since most rows
 * are not in the DOM.
 */
export default function HistoryList(props: HistoryListProps) {
  const { t } = useI18n()
  const scroller = useRef<HTMLElement>(null)
  const count = props.rows.length + (props.hasNextPage ? 1 : 0)
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  })
  const items = virtualizer.getVirtualItems()
  const lastIndex = items.at(-1)?.index ?? -1

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = props
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= props.rows.length - 1) fetchNextPage()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, props.rows.length])

  return (
    <section
      ref={scroller}
      className="history-scroll"
      aria-label={t('history.list')}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
      tabIndex={0}
    >
      <ul className="history-rows" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = props.rows[item.index]
          const style = { height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }
          if (!row) {
            return (
              <li key="loader" className="history-row history-loader" style={style}>
                <span className="spinner" aria-hidden="true" />
                {t('history.loadingMore')}
              </li>
            )
          }
          return (
            <li
              key={row.uuid}
              className="history-row"
              style={style}
              aria-posinset={item.index + 1}
              // -1: the size of the set is not known yet (WAI-ARIA).
              aria-setsize={props.total ?? -1}
              data-testid="history-row"
            >
              <TransactionSummary row={row} decimals={props.decimalsOf(row.currency)} />
            </li>
          )
        })}
      </ul>
    </section>
  )
}
