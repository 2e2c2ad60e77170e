import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react'
import type { Balance } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button, SelectField, Skeleton, TextField } from '../../ui/components.tsx'
import { CsvButton } from '../../ui/csv-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { csvUrl } from './csv-export.ts'
import {
  statusLabel,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  transactionTypeLabel,
} from './labels.ts'
import { type HistoryFilters, historyQuery, historyQueryParams, walletKeys } from './queries.ts'

// The virtualiser comes with the list, in its own chunk.
const HistoryList = lazy(() => import('./history-list.tsx'))

/** A wallet's history: filters, the (virtualised, endless) list, and its CSV export. */
export function History(props: { walletUuid: string; balances: Balance[] }) {
  const { t } = useI18n()
  const titleId = useId()
  const [filters, setFilters] = useState<HistoryFilters>({})
  const history = useInfiniteQuery(historyQuery(props.walletUuid, filters))

  const set = <K extends keyof HistoryFilters>(key: K, value: string) =>
    setFilters((current) => ({ ...current, [key]: value || undefined }))
  const filtered = Object.values(filters).some(Boolean)
  const currencies = [...new Set(props.balances.map((balance) => balance.currency))]
  const decimals = new Map(props.balances.map((balance) => [balance.currency, balance.decimals]))
  const rows = history.data?.pages.flatMap((page) => page.data) ?? []
  // Known once the last page is in (the server counts a long history only when asked).
  const total = history.data?.pages.at(-1)?.total

  // Whenever the history is read again (it polls for arrivals and settling
  // deposits), the balances above are too: they move with it, and the ledger
  // may settle a balance a moment after the record's status changes.
  const queryClient = useQueryClient()
  const readAt = history.dataUpdatedAt
  const seen = useRef(readAt)
  useEffect(() => {
    if (readAt === seen.current) return
    seen.current = readAt
    void queryClient.invalidateQueries({
      queryKey: walletKeys.detail(props.walletUuid),
      exact: true,
    })
  }, [readAt, queryClient, props.walletUuid])

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('history.title')}</h2>
      <fieldset className="filters">
        <legend>{t('history.filters')}</legend>
        <SelectField
          label={t('history.type')}
          value={filters.type ?? ''}
          onChange={(event) => set('type', event.target.value)}
        >
          <option value="">{t('history.any')}</option>
          {TRANSACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {transactionTypeLabel(t, type)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('history.status')}
          value={filters.status ?? ''}
          onChange={(event) => set('status', event.target.value)}
        >
          <option value="">{t('history.any')}</option>
          {TRANSACTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {statusLabel(t, status)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('history.currency')}
          value={filters.currency ?? ''}
          onChange={(event) => set('currency', event.target.value)}
        >
          <option value="">{t('history.any')}</option>
          {currencies.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('history.from')}
          type="date"
          value={filters.from ?? ''}
          max={filters.to}
          onChange={(event) => set('from', event.target.value)}
        />
        <TextField
          label={t('history.to')}
          type="date"
          value={filters.to ?? ''}
          min={filters.from}
          onChange={(event) => set('to', event.target.value)}
        />
        {filtered && (
          <Button variant="quiet" onClick={() => setFilters({})}>
            {t('history.clear')}
          </Button>
        )}
      </fieldset>

      {history.isPending ? (
        <Pending paused={history.isPaused} shape="rows" count={5} />
      ) : history.isError ? (
        <ErrorSummary error={history.error} />
      ) : rows.length === 0 ? (
        <p className="muted">{filtered ? t('history.emptyFiltered') : t('history.empty')}</p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {total === undefined
              ? t('history.countSoFar', { shown: rows.length })
              : t('history.count', { shown: rows.length, total })}
          </p>
          <Suspense fallback={<Skeleton label={t('app.loading')} shape="rows" count={5} />}>
            <HistoryList
              rows={rows}
              total={total}
              decimalsOf={(currency) => decimals.get(currency) ?? 2}
              hasNextPage={history.hasNextPage}
              isFetchingNextPage={history.isFetchingNextPage}
              fetchNextPage={history.fetchNextPage}
            />
          </Suspense>
        </>
      )}
      <CsvButton
        url={csvUrl(props.walletUuid, historyQueryParams(filters))}
        fileName={`transactions-${props.walletUuid}.csv`}
      />
    </section>
  )
}
