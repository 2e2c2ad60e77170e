import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { formatLocale } from '../../i18n/digits.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { walletName } from '../../i18n/wallet-names.ts'
import { href, paths } from '../../paths.ts'
import type { ActivityFilters } from '../../queries/activity.ts'
import { walletsQuery } from '../../queries/wallets.ts'
import { Button, buttonClass } from '../../ui/components.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { CloseIcon, FilterIcon } from '../../ui/screen-icons.tsx'
import { Sheet } from '../../ui/sheet.tsx'
import { ActivityFeed, QuietStart } from './activity-feed.tsx'
import { AmountField, ChipGroup, DayField } from './activity-filter-fields.tsx'
import {
  dayStart,
  isStatus,
  isType,
  type Narrowing,
  readNarrowing,
  STATUSES,
} from './activity-narrowing.ts'
import { SearchBox } from './activity-search-box.tsx'
import './activity.css'
import { ACTIVITY_TYPE_LIST, STATUS_WORDS, TYPE_WORDS } from './wording.ts'

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
      new Intl.DateTimeFormat(formatLocale(language), { day: 'numeric', month: 'short' }).format(
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
