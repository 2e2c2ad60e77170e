import type { ReactNode } from 'react'
import type { FeeLine, MoneySide, OrderType } from '../../../contract/orders.ts'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { formatFigure, formatMoney, formatRate } from '../../i18n/money.ts'
import { feeLabel, orderKind, sideLabels } from './labels.ts'

/** What a quote and an order share: the amounts on both sides, the rate and the fees. */
export interface Priced {
  order_type: OrderType
  from: MoneySide
  to: MoneySide
  rate: string
  fees: FeeLine[]
  total: string
}

const money = (
  language: Language,
  side: Pick<MoneySide, 'decimals' | 'currency'>,
  amount: string,
) => formatMoney(language, { amount, currency: side.currency })

/** "1 BTC = 61,234.50 USDT"; nothing when both sides are one currency. */
export function useRateText(priced: Pick<Priced, 'from' | 'to' | 'rate'>): string | undefined {
  const { language } = useI18n()
  if (priced.from.currency_uuid === priced.to.currency_uuid) return undefined
  return formatRate(language, {
    from: priced.from.currency,
    to: priced.to.currency,
    rate: priced.rate,
  })
}

/**
 * The price in lines: what leaves, each fee (fixed, percentage with its
 * percent, network), the total charged, the rate and what arrives. Fees are
 * in the `from` currency, on top of what leaves (contract Quote).
 */
export function PriceLines(props: { priced: Priced; extra?: [string, ReactNode][] }) {
  const { t, language } = useI18n()
  const { priced } = props
  const labels = sideLabels(t, orderKind(priced.order_type))
  const rate = useRateText(priced)
  return (
    <dl className="order-lines">
      <div className="order-line">
        <dt>{labels.pay}</dt>
        <dd>{money(language, priced.from, priced.from.amount)}</dd>
      </div>
      {priced.fees.length === 0 ? (
        <div className="order-line">
          <dt>{t('orders.fee.none')}</dt>
          <dd>{money(language, priced.from, '0')}</dd>
        </div>
      ) : (
        priced.fees.map((fee, index) => (
          // Fee lines have no id; their order is the server's and stays put.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div className="order-line order-line-fee" key={index}>
            <dt>{feeLabel(t, fee.kind, fee.percent ? formatFigure(language, fee.percent) : '')}</dt>
            <dd>{money(language, priced.from, fee.amount)}</dd>
          </div>
        ))
      )}
      <div className="order-line order-line-total">
        <dt>{labels.total}</dt>
        <dd>{money(language, priced.from, priced.total)}</dd>
      </div>
      {rate && (
        <div className="order-line">
          <dt>{t('orders.quote.rate')}</dt>
          <dd>{rate}</dd>
        </div>
      )}
      <div className="order-line order-line-receive">
        <dt>{labels.receive}</dt>
        <dd>{money(language, priced.to, priced.to.amount)}</dd>
      </div>
      {props.extra?.map(([term, value]) => (
        <div className="order-line" key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
