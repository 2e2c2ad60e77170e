import { useQuery } from '@tanstack/react-query'
import { Fragment, type ReactNode, useEffect, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import type { Currency } from '../../../contract/catalog.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href, paths } from '../../paths.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending } from '../../ui/online.tsx'
import { BackLink } from '../../ui/page-header.tsx'
import { withParams } from './flow-url.ts'
import { walletName } from './labels.ts'
import { OrderResult } from './order-result.tsx'
import { chainsQuery, currenciesQuery, walletsQuery } from './queries.ts'
import { ResumePlacement, usePendingPlacement } from './resume-placement.tsx'

/** What every money screen needs before its form: the wallets, the catalogue, the chosen wallet. */
export interface Basics {
  wallet: Wallet
  /** The wallet picker; nothing to pick with a single wallet. */
  walletField: ReactNode
  currencies: Currency[]
  currency: (uuid: string | undefined) => Currency | undefined
  /** What the wallet can spend in a currency ("0" when it holds none). */
  available: (uuid: string) => string
  chainName: (id: string | null) => string | undefined
  /** "USDT · Tron — 120.50 USDT", for pickers (short enough for a phone's select). */
  currencyOption: (currency: Currency, withBalance?: boolean) => string
}

/**
 * A money screen's frame: its back link, then the form once the wallets and
 * the catalogue are in (from cache offline), or why they are not. Before any
 * form, a confirmation this tab sent without an answer is finished
 * (ResumePlacement); with `?order=` the screen is that order's result.
 */
export function MoneyPage(props: {
  title: string
  /** `?wallet=` of the link that led here; else the first wallet. */
  wallet: string | undefined
  /** Where the screen was opened from, when not a wallet (a card): back and "Done" go there. */
  back?: { href: string; label: string }
  children: (basics: Basics) => ReactNode
}) {
  const { t, language } = useI18n()
  const [path, navigate] = useLocation()
  const search = useSearch()
  const placed = new URLSearchParams(search).get('order') ?? undefined
  const pending = usePendingPlacement()
  const [resumed, setResumed] = useState<'no' | 'refused' | undefined>(pending ? 'no' : undefined)
  // Balances decide what can be spent: read again on every visit, whatever the cache says.
  const wallets = useQuery({ ...walletsQuery(), refetchOnMount: 'always' })
  const currencies = useQuery(currenciesQuery())
  const chains = useQuery(chainsQuery())
  const [chosen, setChosen] = useState(props.wallet)
  const list = wallets.data?.data ?? []
  const wallet = list.find((candidate) => candidate.uuid === chosen) ?? list[0]

  // Another wallet remounts the form (nothing of the last wallet's recipient,
  // currency or amount survives), its picker included: the focus goes back to it.
  const frameRef = useRef<HTMLDivElement>(null)
  const picked = useRef(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the wallet changes
  useEffect(() => {
    if (!picked.current) return
    picked.current = false
    frameRef.current?.querySelector<HTMLSelectElement>('select[name="wallet"]')?.focus()
  }, [wallet?.uuid])

  const back =
    props.back ??
    (props.wallet
      ? { href: href.wallet(props.wallet), label: t('orders.backToWallet') }
      : { href: paths.move, label: t('nav.move') })
  const frame = (body: ReactNode) => (
    <div className="stack" ref={frameRef}>
      <BackLink back={back} />
      {body}
    </div>
  )
  if (placed) return frame(<OrderResult orderId={placed} done={props.back?.href} />)
  if (pending && resumed === 'no') {
    return frame(
      <>
        <h1>{props.title}</h1>
        <ResumePlacement
          placement={pending}
          onPlaced={(order) => {
            setResumed(undefined)
            navigate(withParams(path, search, { step: undefined, order: order.id }), {
              replace: true,
            })
          }}
          onRefused={() => setResumed('refused')}
        />
      </>,
    )
  }
  const failed = wallets.error ?? currencies.error
  if (failed) {
    return frame(
      <>
        <h1>{props.title}</h1>
        <ErrorSummary error={failed} />
        <Button
          variant="secondary"
          onClick={() => {
            void wallets.refetch()
            void currencies.refetch()
          }}
        >
          {t('error.retry')}
        </Button>
      </>,
    )
  }
  if (!wallets.data || !currencies.data) {
    return frame(
      <>
        <h1>{props.title}</h1>
        <Pending paused={wallets.isPaused || currencies.isPaused} shape="card" />
      </>,
    )
  }
  if (!wallet) {
    return frame(
      <>
        <h1>{props.title}</h1>
        <NoWalletYet />
      </>,
    )
  }

  const catalogue = currencies.data.data
  const chainName = (id: string | null) =>
    id ? (chains.data?.data.find((chain) => chain.id === id)?.name ?? id) : undefined
  const available = (uuid: string) =>
    wallet.balances.find((balance) => balance.currency_uuid === uuid)?.available ?? '0'
  const basics: Basics = {
    wallet,
    walletField:
      list.length > 1 ? (
        <SelectField
          label={t('orders.wallet')}
          name="wallet"
          value={wallet.uuid}
          onChange={(event) => {
            picked.current = true
            setChosen(event.target.value)
          }}
        >
          {list.map((candidate) => (
            <option key={candidate.uuid} value={candidate.uuid}>
              {walletName(t, candidate)}
            </option>
          ))}
        </SelectField>
      ) : null,
    currencies: catalogue,
    currency: (uuid) => catalogue.find((currency) => currency.uuid === uuid),
    available,
    chainName,
    currencyOption: (currency, withBalance = true) => {
      const chain = chainName(currency.chain)
      const name = chain ? `${currency.code} · ${chain}` : currency.code
      if (!withBalance) return name
      return t('orders.currency.option', {
        currency: name,
        available: formatMoney(language, {
          amount: available(currency.uuid),
          currency: currency.code,
          chain: currency.chain,
        }),
      })
    },
  }
  return frame(
    <>
      {resumed === 'refused' && <Notice>{t('orders.pending.notPlaced')}</Notice>}
      <Fragment key={wallet.uuid}>{props.children(basics)}</Fragment>
    </>,
  )
}

/**
 * A currency picker's options: what the wallet holds first, and the ones it
 * holds none of only after "Show all" (the chosen one always shows). With
 * nothing held there is nothing to hide. `toggle` goes under the picker.
 */
export function useHeldFirst(
  basics: Pick<Basics, 'available'>,
  currencies: readonly Currency[],
  chosen: string | undefined,
): { options: Currency[]; toggle: ReactNode } {
  const { t } = useI18n()
  const [all, setAll] = useState(false)
  const isHeld = (currency: Currency) => parseDecimal(basics.available(currency.uuid)).units > 0n
  const held = currencies.filter(isHeld)
  const empty = currencies.filter((currency) => !isHeld(currency))
  const hidden = held.length === 0 ? [] : empty.filter((currency) => currency.uuid !== chosen)
  const options = all ? [...held, ...empty] : currencies.filter((c) => !hidden.includes(c))
  const sorted = [...options].sort((a, b) => Number(isHeld(b)) - Number(isHeld(a)))
  const toggle =
    hidden.length > 0 ? (
      <Button
        variant="quiet"
        className="order-show-all"
        aria-expanded={all}
        onClick={() => setAll((value) => !value)}
      >
        {all ? t('money.showHeld') : t('money.showAll', { count: hidden.length })}
      </Button>
    ) : null
  return { options: sorted, toggle }
}
