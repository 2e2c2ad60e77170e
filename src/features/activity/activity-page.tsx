import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import type { ActivityStatus, ActivityType } from '../../../contract/activity.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { walletName } from '../../i18n/wallet-names.ts'
import { href, paths } from '../../paths.ts'
import type { ActivityFilters } from '../../queries/activity.ts'
import { walletsQuery } from '../../queries/wallets.ts'
import { Button, buttonClass } from '../../ui/components.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { CloseIcon, FilterIcon, SearchIcon } from '../../ui/screen-icons.tsx'
import { Sheet } from '../../ui/sheet.tsx'
import { ActivityFeed, QuietStart } from './activity-feed.tsx'
import './activity.css'
import { ACTIVITY_TYPE_LIST, STATUS_WORDS, TYPE_WORDS } from './wording.ts'

/**
 * What the screen is narrowed to, as its address holds it
 * (`?q=&type=&currency=&wallet=&card=&card_last4=`). A card's "See all" opens
 * the screen on that card; its last four name the chip.
 */
interface Narrowing {
  q?: string
  type?: ActivityType
  currency?: string
  wallet?: string
  card?: string
  card_last4?: string
  /** Issue 31: days ("2026-03-01"), both included; amounts (plain decimals); a status. */
  from?: string
  to?: string
  min?: string
  max?: string
  status?: ActivityStatus
}

const isType = (value: string | null): value is ActivityType =>
  (ACTIVITY_TYPE_LIST as readonly (string | null)[]).includes(value)

const STATUSES: ActivityStatus[] = [
  'pending',
  'complete',
  'failed',
  'declined',
  'canceled',
  'reversed',
  'refunded',
]
const isStatus = (value: string | null): value is ActivityStatus =>
  (STATUSES as readonly (string | null)[]).includes(value)
const DAY = /^\d{4}-\d{2}-\d{2}$/
const AMOUNT = /^\d{1,30}(\.\d{1,18})?$/
const day = (value: string | null) => (value && DAY.test(value) ? value : undefined)
const amount = (value: string | null) => (value && AMOUNT.test(value) ? value : undefined)

/** A day's first local instant, or the next day's (`after`): what the API's `from`/`to` take. */
function dayStart(value: string, after = false): string {
  const [year, month, date] = value.split('-').map(Number) as [number, number, number]
  return new Date(year, month - 1, date + (after ? 1 : 0)).toISOString()
}

function readNarrowing(search: string): Narrowing {
  const params = new URLSearchParams(search)
  const type = params.get('type')
  return {
    q: params.get('q')?.trim() || undefined,
    type: isType(type) ? type : undefined,
    currency: params.get('currency') || undefined,
    wallet: params.get('wallet') || undefined,
    card: params.get('card') || undefined,
    card_last4: params.get('card_last4') || undefined,
    from: day(params.get('from')),
    to: day(params.get('to')),
    min: amount(params.get('min')),
    max: amount(params.get('max')),
    status: isStatus(params.get('status')) ? (params.get('status') as ActivityStatus) : undefined,
  }
}

/** Typing settles before the search is sent: one request for a word, not one per key. */
const SEARCH_SETTLE_MS = 300
/** The API's limit on a search (contract ActivityQuery.q). */
const SEARCH_MAX = 100

/**
 * /activity — the Activity tab: everything that happened across wallets,
 * cards and accounts, by day, with a search and filters at the top (type,
 * currency, wallet) that live in the address, so back from an item keeps them.
 * On a phone the filters are a sheet; what is chosen shows as chips.
 */
export default function ActivityPage() {
  const { t, language } = useI18n()
  const [, navigate] = useLocation()
  const search = useSearch()
  const narrowing = readNarrowing(search)
  const [filtersOpen, setFiltersOpen] = useState(false)
  const wallets = useQuery(walletsQuery())
  const list = wallets.data?.data ?? []
  const wallet = list.find((item) => item.uuid === narrowing.wallet)

  const change = (next: Partial<Narrowing>) =>
    navigate(href.activity({ ...narrowing, ...next }), { replace: true })

  const filters: ActivityFilters = {
    q: narrowing.q,
    type: narrowing.type,
    currency: narrowing.currency,
    wallet_uuid: wallet?.uuid,
    card_id: narrowing.card,
    status: narrowing.status,
    from: narrowing.from && dayStart(narrowing.from),
    to: narrowing.to && dayStart(narrowing.to, true),
    min: narrowing.min,
    max: narrowing.max,
  }
  const dates = narrowing.from || narrowing.to
  const amounts = narrowing.min || narrowing.max
  const chosen = [
    narrowing.type,
    narrowing.currency,
    wallet,
    narrowing.card,
    narrowing.status,
    dates,
    amounts,
  ].filter(Boolean).length
  const narrowed = chosen > 0 || narrowing.q !== undefined
  // Held currencies first, then the rest the wallets know.
  const currencies = [
    ...new Set(
      [...list.flatMap((item) => item.balances)]
        .sort((a, b) => Number(isZero(a.available)) - Number(isZero(b.available)))
        .map((balance) => balance.currency),
    ),
  ]

  const chips: { key: string; label: string; clear: Partial<Narrowing> }[] = []
  if (narrowing.type) {
    chips.push({ key: 'type', label: t(TYPE_WORDS[narrowing.type]), clear: { type: undefined } })
  }
  if (narrowing.currency) {
    chips.push({ key: 'currency', label: narrowing.currency, clear: { currency: undefined } })
  }
  if (wallet)
    chips.push({ key: 'wallet', label: walletName(t, wallet), clear: { wallet: undefined } })
  if (narrowing.status) {
    chips.push({
      key: 'status',
      label: t(STATUS_WORDS[narrowing.status]),
      clear: { status: undefined },
    })
  }
  if (dates) {
    const short = (value: string) =>
      new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' }).format(
        new Date(`${value}T12:00:00`),
      )
    chips.push({
      key: 'dates',
      label: `${narrowing.from ? short(narrowing.from) : '…'} – ${narrowing.to ? short(narrowing.to) : '…'}`,
      clear: { from: undefined, to: undefined },
    })
  }
  if (amounts) {
    chips.push({
      key: 'amounts',
      label: [
        narrowing.min && t('activity.filters.atLeast', { amount: narrowing.min }),
        narrowing.max && t('activity.filters.atMost', { amount: narrowing.max }),
      ]
        .filter(Boolean)
        .join(' · '),
      clear: { min: undefined, max: undefined },
    })
  }
  if (narrowing.card) {
    chips.push({
      key: 'card',
      label: narrowing.card_last4
        ? t('activity.filters.cardEnding', { last4: narrowing.card_last4 })
        : t('activity.filters.card'),
      clear: { card: undefined, card_last4: undefined },
    })
  }

  return (
    <div className="stack">
      <PageHeader
        id="activity-title"
        title={t('nav.activity')}
        actions={
          <>
            <Link href={paths.insights} className={buttonClass('secondary')}>
              {t('activity.insights')}
            </Link>
            <Link
              href={href.orders(wallet ? { wallet: wallet.uuid } : {})}
              className={buttonClass('secondary')}
            >
              {t('orders.action.history')}
            </Link>
          </>
        }
      />
      <div className="activity-tools">
        <SearchBox value={narrowing.q ?? ''} onSearch={(q) => change({ q })} />
        {/* On a phone the button is its icon and count: the search field gets the width. */}
        <Button
          variant="secondary"
          className="activity-filter-button"
          aria-haspopup="dialog"
          aria-label={
            chosen > 0
              ? t('activity.filters.openCount', { count: chosen })
              : t('activity.filters.open')
          }
          onClick={() => setFiltersOpen(true)}
        >
          <FilterIcon size={20} />
          <span className="activity-filter-label">{t('activity.filters.open')}</span>
          {chosen > 0 && <span className="activity-filter-count">{chosen}</span>}
        </Button>
      </div>
      {chips.length > 0 && (
        <ul className="activity-chips" aria-label={t('activity.filters.chosen')}>
          {chips.map((chip) => (
            <li key={chip.key}>
              <button
                type="button"
                className="chip chip-on"
                aria-label={t('activity.filters.remove', { filter: chip.label })}
                onClick={() => change(chip.clear)}
              >
                {chip.label}
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <Sheet
        open={filtersOpen}
        title={t('activity.filters.title')}
        onClose={() => setFiltersOpen(false)}
        testId="activity-filters"
        footer={
          <div className="sheet-actions">
            {chosen > 0 && (
              <Button
                variant="quiet"
                onClick={() =>
                  change({
                    type: undefined,
                    currency: undefined,
                    wallet: undefined,
                    card: undefined,
                    card_last4: undefined,
                    status: undefined,
                    from: undefined,
                    to: undefined,
                    min: undefined,
                    max: undefined,
                  })
                }
              >
                {t('activity.filters.clear')}
              </Button>
            )}
            <Button onClick={() => setFiltersOpen(false)}>{t('activity.filters.done')}</Button>
          </div>
        }
      >
        <ChipGroup
          legend={t('activity.filters.type')}
          value={narrowing.type ?? ''}
          options={ACTIVITY_TYPE_LIST.map((type) => ({ value: type, label: t(TYPE_WORDS[type]) }))}
          onChange={(value) => change({ type: isType(value) ? value : undefined })}
        />
        <ChipGroup
          legend={t('activity.filters.status')}
          value={narrowing.status ?? ''}
          options={STATUSES.map((status) => ({ value: status, label: t(STATUS_WORDS[status]) }))}
          onChange={(value) => change({ status: isStatus(value) ? value : undefined })}
        />
        <fieldset className="chip-group">
          <legend>{t('activity.filters.when')}</legend>
          <div className="activity-range">
            <DayField
              label={t('activity.filters.fromDay')}
              value={narrowing.from}
              onChange={(from) => change({ from })}
            />
            <DayField
              label={t('activity.filters.toDay')}
              value={narrowing.to}
              onChange={(to) => change({ to })}
            />
          </div>
        </fieldset>
        <fieldset className="chip-group">
          <legend>{t('activity.filters.amount')}</legend>
          <div className="activity-range">
            <AmountField
              label={t('activity.filters.min')}
              value={narrowing.min}
              onChange={(min) => change({ min })}
            />
            <AmountField
              label={t('activity.filters.max')}
              value={narrowing.max}
              onChange={(max) => change({ max })}
            />
          </div>
        </fieldset>
        {currencies.length > 0 && (
          <ChipGroup
            legend={t('activity.filters.currency')}
            value={narrowing.currency ?? ''}
            options={currencies.map((code) => ({ value: code, label: code }))}
            onChange={(value) => change({ currency: value || undefined })}
          />
        )}
        {list.length > 1 && (
          <ChipGroup
            legend={t('activity.filters.wallet')}
            value={wallet?.uuid ?? ''}
            options={list.map((item) => ({ value: item.uuid, label: walletName(t, item) }))}
            onChange={(value) => change({ wallet: value || undefined })}
          />
        )}
      </Sheet>
      <ActivityFeed
        filters={filters}
        perspective={
          narrowing.card ? { account: true } : wallet ? { wallet: wallet.uuid } : undefined
        }
        level={2}
        empty={
          narrowed ? (
            <div className="card">
              <QuietStart text={t('activity.emptyFiltered')}>
                <Button
                  variant="secondary"
                  onClick={() => navigate(href.activity(), { replace: true })}
                >
                  {t('activity.filters.clearAll')}
                </Button>
              </QuietStart>
            </div>
          ) : (
            <div className="card">
              <QuietStart text={t('activity.empty')}>
                <Link href={href.deposit()} className={buttonClass('primary')}>
                  {t('steps.addMoney')}
                </Link>
              </QuietStart>
            </div>
          )
        }
      />
    </div>
  )
}

const isZero = (amount: string) => /^[-+]?0*(\.0*)?$/.test(amount)

/** The search field: it searches once typing settles, and at once on Enter. */
function SearchBox(props: { value: string; onSearch: (q: string | undefined) => void }) {
  const { t } = useI18n()
  const id = useId()
  const [text, setText] = useState(props.value)
  const onSearch = useRef(props.onSearch)
  onSearch.current = props.onSearch
  // What this box last asked for: an address that changes to anything else
  // changed from outside (filters cleared, back), and the box follows it.
  const asked = useRef(props.value)
  if (props.value !== asked.current) {
    asked.current = props.value
    if (props.value !== text.trim()) setText(props.value)
  }

  // Refs only: one function for the box's life.
  const send = useCallback((value: string) => {
    asked.current = value
    onSearch.current(value || undefined)
  }, [])

  useEffect(() => {
    const wanted = text.trim()
    if (wanted === asked.current) return
    const timer = setTimeout(() => send(wanted), SEARCH_SETTLE_MS)
    return () => clearTimeout(timer)
  }, [text, send])

  return (
    <search>
      <form
        className="activity-search"
        onSubmit={(event) => {
          event.preventDefault()
          send(text.trim())
        }}
      >
        <label htmlFor={id} className="visually-hidden">
          {t('activity.search.label')}
        </label>
        <SearchIcon size={20} />
        <input
          id={id}
          type="search"
          value={text}
          maxLength={SEARCH_MAX}
          placeholder={t('activity.search.placeholder')}
          onChange={(event) => setText(event.target.value)}
        />
      </form>
    </search>
  )
}

/** One choice as pills (radio buttons underneath): "All" and each option. */
function ChipGroup(props: {
  legend: string
  value: string
  options: { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  const { t } = useI18n()
  const name = useId()
  const all = [{ value: '', label: t('activity.filters.all') }, ...props.options]
  return (
    <fieldset className="chip-group">
      <legend>{props.legend}</legend>
      <div className="chip-options">
        {all.map((option) => (
          <label key={option.value} className="chip">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={props.value === option.value}
              onChange={() => props.onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** A day for the date range, sent as soon as it is picked. */
function DayField(props: { label: string; value?: string; onChange: (value?: string) => void }) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="date"
        value={props.value ?? ''}
        onChange={(event) => props.onChange(day(event.target.value))}
      />
    </div>
  )
}

/**
 * An amount bound, sent when the field is left or Enter pressed (not on each
 * key); one that is not a plain number says so and is not sent.
 */
function AmountField(props: { label: string; value?: string; onChange: (value?: string) => void }) {
  const { t } = useI18n()
  const id = useId()
  const [text, setText] = useState(props.value ?? '')
  const typed = text.trim().replace(',', '.')
  const wrong = typed !== '' && !AMOUNT.test(typed)
  const send = () => {
    if (!wrong) props.onChange(typed || undefined)
  }
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        value={text}
        aria-invalid={wrong || undefined}
        aria-describedby={wrong ? `${id}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={send}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            send()
          }
        }}
      />
      {wrong && (
        <p id={`${id}-error`} className="field-error">
          {t('activity.filters.amountWrong')}
        </p>
      )}
    </div>
  )
}
