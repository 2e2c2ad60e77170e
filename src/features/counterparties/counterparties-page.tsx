import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { Counterparty, CounterpartyType } from '../../../contract/counterparties.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href, paths } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { useDebounced } from '../../ui/debounced.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TextField } from '../../ui/fields.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useChosenWallet, WalletSelect } from '../../ui/wallet-select.tsx'
import {
  COUNTERPARTY_TYPES,
  counterpartyTypeLabel,
  countryName,
  destinationsCount,
  initials,
} from './labels.ts'
import { type CounterpartyFilters, counterpartiesQuery } from './queries.ts'
import './counterparties.css'

/** Typing pauses this long before the server is asked: one request per word, not per key. */
const SEARCH_DELAY_MS = 300
/** The API's bound on `search`. */
const SEARCH_MAX = 100

/**
 * /wallets/:uuid/counterparties, or /counterparties?wallet= (the side
 * navigation's: the first wallet unless the link names one, with a picker) —
 * the people and businesses a wallet pays.
 */
export default function CounterpartiesPage(props: { uuid?: string }) {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const chosen = useChosenWallet()
  if (props.uuid) return <CounterpartyBook uuid={props.uuid} />
  if (chosen.wallets.isPending) return <Pending paused={chosen.wallets.isPaused} />
  if (chosen.wallets.isError) {
    return (
      <LoadError
        error={chosen.wallets.error}
        what="wallet"
        back={{ href: paths.home, label: t('missing.home') }}
        onRetry={() => chosen.wallets.refetch()}
      />
    )
  }
  if (!chosen.wallet) return <NoWalletYet />
  return (
    <CounterpartyBook
      uuid={chosen.wallet}
      picker={
        <WalletSelect
          wallets={chosen.list}
          value={chosen.wallet}
          onChange={(uuid) => navigate(href.counterpartiesHome({ wallet: uuid }))}
        />
      }
    />
  )
}

/**
 * One wallet's book: search by name, filter by type, more on demand. Read
 * from the stored cache offline; adding needs the server and says so.
 */
function CounterpartyBook(props: { uuid: string; picker?: ReactNode }) {
  const { t } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const [text, setText] = useState('')
  const [type, setType] = useState<CounterpartyType | undefined>()
  const search = useDebounced(text.trim().slice(0, SEARCH_MAX), SEARCH_DELAY_MS)
  const filters: CounterpartyFilters = { type, search: search || undefined }
  const filtered = Boolean(filters.type || filters.search)
  const list = useInfiniteQuery({
    ...counterpartiesQuery(props.uuid, filters),
    // While the next answer is on its way the last one stays, marked as searching.
    placeholderData: keepPreviousData,
  })

  const rows = list.data?.pages.flatMap((page) => page.data) ?? []
  const total = list.data?.pages.at(-1)?.total ?? 0
  // Offline, another search has nothing stored: showing the last one under it would mislead.
  const stale = list.isPlaceholderData
  // An empty book has nothing to search: it shows only the invitation to add.
  const bookEmpty = list.isSuccess && !stale && rows.length === 0 && !filtered && !text

  const add = server.offline ? (
    <Button {...server.disabledProps}>{t('cp.add')}</Button>
  ) : (
    <Link href={href.newCounterparty(props.uuid)} className="button button-primary">
      {t('cp.add')}
    </Link>
  )

  let body: ReactNode
  if (list.isPending || (stale && list.isPaused)) {
    body = <Pending paused={list.isPaused} />
  } else if (list.isError) {
    body = (
      <div className="stack">
        <ErrorSummary error={list.error} />
        <Button variant="secondary" onClick={() => list.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  } else if (bookEmpty) {
    body = (
      <div className="cp-empty stack">
        <p>{t('cp.empty')}</p>
        {add}
      </div>
    )
  } else if (rows.length === 0) {
    body = (
      <div className="stack">
        <p className="muted">{t('cp.emptyFiltered')}</p>
        <Button
          variant="secondary"
          onClick={() => {
            setText('')
            setType(undefined)
          }}
        >
          {t('cp.clearFilters')}
        </Button>
      </div>
    )
  } else {
    body = (
      <>
        {/* How far the list goes, while there is more than shown. */}
        <p className="muted" aria-live="polite">
          {stale
            ? t('cp.searching')
            : rows.length < total
              ? t('cp.count', { shown: rows.length, total })
              : null}
        </p>
        <ul className="cp-list" aria-busy={stale || undefined}>
          {rows.map((counterparty) => (
            <CounterpartyRow
              key={counterparty.counterparty_account_id}
              walletUuid={props.uuid}
              counterparty={counterparty}
            />
          ))}
        </ul>
        {list.hasNextPage && (
          <Button
            variant="secondary"
            busy={list.isFetchingNextPage}
            onClick={() => list.fetchNextPage()}
            {...server.disabledProps}
          >
            {list.isFetchingNextPage ? t('cp.loadingMore') : t('cp.loadMore')}
          </Button>
        )}
      </>
    )
  }

  return (
    <div className="stack">
      <PageHeader
        id={titleId}
        title={t('cp.title')}
        back={
          props.picker ? undefined : { href: href.wallet(props.uuid), label: t('cp.backToWallet') }
        }
        actions={!bookEmpty && add}
      />
      {props.picker}
      <section className="card stack" aria-labelledby={titleId}>
        {server.reason}
        {!bookEmpty && (
          <search className="cp-filters">
            <TextField
              label={t('cp.search')}
              type="search"
              value={text}
              maxLength={SEARCH_MAX}
              autoComplete="off"
              onChange={(event) => setText(event.target.value)}
            />
            <fieldset className="fieldset">
              <legend className="visually-hidden">{t('cp.filterType')}</legend>
              <div className="cp-segments">
                {[undefined, ...COUNTERPARTY_TYPES].map((value) => (
                  <label key={value ?? 'all'} className="cp-segment">
                    <input
                      type="radio"
                      name="counterparty-type"
                      checked={type === value}
                      onChange={() => setType(value)}
                    />
                    <span>{value ? t(`cp.filter.${value}`) : t('cp.filter.all')}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          </search>
        )}
        {body}
      </section>
    </div>
  )
}

function CounterpartyRow(props: { walletUuid: string; counterparty: Counterparty }) {
  const { t, language } = useI18n()
  const { counterparty } = props
  return (
    <li>
      <Link
        href={href.counterparty(props.walletUuid, counterparty.counterparty_account_id)}
        className="cp-row"
      >
        <span className="cp-avatar" aria-hidden="true">
          {initials(counterparty.name)}
        </span>
        <span className="cp-row-main">
          <span className="cp-row-name">{counterparty.name}</span>
          {/* The count under the name, not beside it: a name is what is looked for, and gets the width. */}
          <span className="muted cp-row-sub">
            {counterpartyTypeLabel(t, counterparty.type)} ·{' '}
            {countryName(language, counterparty.country)} ·{' '}
            {destinationsCount(t, counterparty.destinations_count)}
          </span>
        </span>
      </Link>
    </li>
  )
}
