import { useEffect, useRef } from 'react'
import { Link, useLocation } from 'wouter'
import type { Order } from '../../../contract/orders.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { DepositInstructions } from './deposit-instructions.tsx'
import { failureText, isFinal, orderHeadline, orderStatusLabel, statusTone } from './labels.ts'
import { RepeatThis } from './repeat-this.tsx'
import { StatusTimeline } from './status-timeline.tsx'
import { useLiveOrder } from './use-live-order.ts'

/**
 * The last step of a money action: the order placed, its status following
 * the server live until it is final, a deposit's bank details, a link to the
 * order, and "Done" (back to the wallet, or to where the flow was opened). Read by id (the money screen's `?order=`), so a reload
 * shows it again, bank details included.
 */
export function OrderResult(props: {
  orderId: string
  /** Where "Done" leads; the order's wallet unless the flow was opened elsewhere (a card). */
  done?: string | undefined
}) {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const order = useLiveOrder(props.orderId)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const loaded = order.data !== undefined
  // The result's heading takes the focus once it is there, so keyboard and screen-reader users start at it.
  useEffect(() => {
    if (loaded) headingRef.current?.focus()
  }, [loaded])

  if (order.isPending) return <Pending paused={order.isPaused} />
  if (order.isError && !order.data) return <ErrorSummary error={order.error} />
  const current = order.data
  const tone = statusTone(current.status)

  return (
    <section className="stack" aria-labelledby="order-result-title">
      <div className={`order-result order-result-${tone}`}>
        <span className="order-result-mark" aria-hidden="true">
          {tone === 'failure' ? '✕' : tone === 'success' ? '✓' : '…'}
        </span>
        <h1 id="order-result-title" ref={headingRef} tabIndex={-1}>
          {t(orderHeadline(current.order_type, current.status))}
        </h1>
        <OrderHeadline order={current} />
      </div>
      {current.deposit_instructions && !isFinal(current.status) && (
        <DepositInstructions
          instructions={current.deposit_instructions}
          decimals={current.from.decimals}
        />
      )}
      <section className="card stack" aria-labelledby="order-result-progress">
        <h2 id="order-result-progress">{t('orders.timeline.title')}</h2>
        <StatusTimeline order={current} />
      </section>
      {current.order_type === 'EXCHANGE_CRYPTO_INTERNAL' && current.status === 'COMPLETE' && (
        <RepeatThis
          repeat={{
            kind: 'exchange',
            template: {
              wallet_uuid: current.wallet_uuid,
              from_uuid: current.from.currency_uuid,
              to_uuid: current.to.currency_uuid,
              amount_from: current.from.amount,
            },
          }}
        />
      )}
      <Link href={href.order(current.id)}>{t('orders.result.view')}</Link>
      <Button block onClick={() => navigate(props.done ?? href.wallet(current.wallet_uuid))}>
        {t('orders.result.done')}
      </Button>
    </section>
  )
}

/**
 * The order's amount and status in a sentence, announced when it changes
 * (role=status): "1,000.00 USDT · Complete".
 */
export function OrderHeadline(props: { order: Order }) {
  const { t, language } = useI18n()
  const { order } = props
  return (
    <div className="stack order-headline">
      <p className="order-headline-amount">
        {formatMoney(language, { amount: order.to.amount, currency: order.to.currency })}
      </p>
      <p role="status" className={`order-status order-status-${statusTone(order.status)}`}>
        {orderStatusLabel(t, order.status)}
        {order.failure_code && ` · ${failureText(t, order.failure_code)}`}
      </p>
    </div>
  )
}
