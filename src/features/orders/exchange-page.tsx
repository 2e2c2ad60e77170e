import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useSearch } from 'wouter'
import type { ExchangeDirection } from '../../../contract/orders.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney, formatRate } from '../../i18n/money.ts'
import { Button } from '../../ui/components.tsx'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { SelectField } from '../../ui/fields.tsx'
import { formKey } from './flow-url.ts'
import { maxPayable, shownBound } from './limits.ts'
import { type Basics, MoneyPage, useHeldFirst } from './money-page.tsx'
import { OrderFlow } from './order-flow.tsx'
import { directionsQuery } from './queries.ts'
import './orders.css'

/** /exchange?wallet=&from=&to= — one currency into another inside the wallet, at a firm rate. */
export default function ExchangePage() {
  const search = useSearch()
  const { t } = useI18n()
  const params = new URLSearchParams(search)
  return (
    <MoneyPage
      key={formKey(search)}
      title={t('orders.exchange.title')}
      wallet={params.get('wallet') ?? undefined}
    >
      {(basics) => (
        <ExchangeForm
          basics={basics}
          from={params.get('from') ?? undefined}
          to={params.get('to') ?? undefined}
        />
      )}
    </MoneyPage>
  )
}

/** Whatever the wallet holds most of comes first: that is what people exchange. */
function byBalance(basics: Basics) {
  const held = (uuid: string) => parseDecimal(basics.available(uuid))
  return [...basics.currencies].sort((a, b) => {
    const aHeld = held(a.uuid).units > 0n
    const bHeld = held(b.uuid).units > 0n
    return aHeld === bHeld ? 0 : aHeld ? -1 : 1
  })
}

function ExchangeForm(props: { basics: Basics; from?: string; to?: string }) {
  const { t, language } = useI18n()
  const { basics } = props
  const sorted = byBalance(basics)
  const [from, setFrom] = useState(props.from ?? sorted[0]?.uuid)
  const pickable = useHeldFirst(basics, sorted, from)
  const [chosenTo, setTo] = useState(props.to)
  const directions = useQuery({
    ...directionsQuery(from ?? '', 'EXCHANGE_CRYPTO_INTERNAL'),
    enabled: from !== undefined,
  })
  const targets = (directions.data?.data ?? []).filter(
    (direction) => direction.to.currency_uuid !== from,
  )
  const direction: ExchangeDirection | undefined =
    targets.find((candidate) => candidate.to.currency_uuid === chosenTo) ?? targets[0]
  const to = direction?.to.currency_uuid

  const fromCurrency = basics.currency(from)
  const toCurrency = basics.currency(to)
  const swap = () => {
    if (!to) return
    setFrom(to)
    setTo(from)
  }

  const bound = (amount: string, way: 'min' | 'max') =>
    fromCurrency &&
    formatMoney(language, {
      amount: shownBound(
        amount,
        { decimals: fromCurrency.decimals, fiat: fromCurrency.type === 'fiat' },
        way,
      ),
      currency: fromCurrency.code,
      chain: fromCurrency.chain,
    })
  const limits =
    direction && fromCurrency && compare(parseDecimal(direction.max_amount), parseDecimal('0')) > 0
      ? t('orders.exchange.limits', {
          min: bound(direction.min_amount, 'min')!,
          max: bound(direction.max_amount, 'max')!,
        })
      : undefined
  const indicative =
    direction &&
    t('orders.exchange.indicative', {
      rate: formatRate(language, {
        from: direction.from.currency,
        to: direction.to.currency,
        rate: direction.rate,
      }),
    })

  return (
    <OrderFlow
      kind="exchange"
      title={t('orders.exchange.title')}
      request={
        from && to
          ? {
              order_type: 'EXCHANGE_CRYPTO_INTERNAL',
              wallet_uuid: basics.wallet.uuid,
              from_uuid: from,
              to_uuid: to,
            }
          : undefined
      }
      from={fromCurrency && { currency: fromCurrency.code, decimals: fromCurrency.decimals }}
      to={toCurrency && { currency: toCurrency.code, decimals: toCurrency.decimals }}
      available={from ? basics.available(from) : undefined}
      max={
        direction && from && fromCurrency
          ? maxPayable(
              basics.available(from),
              {
                fixed: direction.fee_fixed,
                percent: direction.fee_percent,
                network: direction.network_fee,
              },
              fromCurrency.decimals,
              direction.max_amount,
            )
          : undefined
      }
      fields={
        <>
          {basics.walletField}
          <div className="order-pair">
            <SelectField
              label={t('orders.exchange.from')}
              value={from ?? ''}
              onChange={(event) => setFrom(event.target.value)}
            >
              {pickable.options.map((currency) => (
                <option key={currency.uuid} value={currency.uuid}>
                  {basics.currencyOption(currency)}
                </option>
              ))}
            </SelectField>
            {pickable.toggle}
            <Button
              variant="secondary"
              className="order-swap"
              aria-label={t('orders.exchange.swap')}
              onClick={swap}
              disabled={!to}
            >
              <span aria-hidden="true">⇅</span>
            </Button>
            <SelectField
              label={t('orders.exchange.to')}
              value={to ?? ''}
              onChange={(event) => setTo(event.target.value)}
              disabled={targets.length === 0}
              hint={
                directions.isPending && from
                  ? t('orders.exchange.loadingTargets')
                  : directions.isSuccess && targets.length === 0
                    ? t('orders.exchange.noTargets')
                    : undefined
              }
              error={directions.isError ? t('orders.exchange.targetsFailed') : undefined}
            >
              {targets.map((candidate) => {
                const currency = basics.currency(candidate.to.currency_uuid)
                return (
                  <option key={candidate.to.currency_uuid} value={candidate.to.currency_uuid}>
                    {/* What is received: no balance, so the name fits a phone's picker. */}
                    {currency ? basics.currencyOption(currency, false) : candidate.to.currency}
                  </option>
                )
              })}
            </SelectField>
          </div>
        </>
      }
      hint={
        (indicative || limits) && (
          <p className="muted">{[indicative, limits].filter(Boolean).join(' · ')}</p>
        )
      }
    />
  )
}
