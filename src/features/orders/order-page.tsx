import { useEffect, useRef, useState } from 'react'
import type { Order } from '../../../contract/orders.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ApiError } from '../../net/api.ts'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { DepositInstructions } from './deposit-instructions.tsx'
import { isCancellable, isDeposit, isFinal, orderHeadline, orderTypeLabel } from './labels.ts'
import { useCancelOrder } from './mutations.ts'
import { OrderHeadline } from './order-result.tsx'
import { type Row, useTargetRows } from './order-target.tsx'
import { PriceLines } from './price-lines.tsx'
import { PendingPlacementNotice } from './resume-placement.tsx'
import { StatusTimeline } from './status-timeline.tsx'
import { useLiveOrder } from './use-live-order.ts'
import './orders.css'

/** /orders/:id — one order: its amounts, where it goes, its timeline, and cancel while it can be. */
export default function OrderPage(props: { id: string }) {
  const { t } = useI18n()
  const order = useLiveOrder(props.id)
  const titleRef = useRef<HTMLHeadingElement>(null)
  const back = (wallet?: string) => ({
    href: href.orders({ wallet }),
    label: t('orders.history.title'),
  })

  if (order.isPending) return <Pending paused={order.isPaused} />
  if (order.isError && !order.data) {
    return (
      <LoadError error={order.error} what="order" back={back()} onRetry={() => order.refetch()} />
    )
  }
  const current = order.data
  return (
    <div className="stack">
      <PageHeader
        id="order-title"
        headingRef={titleRef}
        title={orderTypeLabel(t, current.order_type)}
        back={back(current.wallet_uuid)}
      />
      <PendingPlacementNotice />
      <section className="card stack" aria-labelledby="order-title">
        {/* What the person should know first in this state; the status line under the amount says it in a word. */}
        <h2 className="order-page-headline">
          {t(orderHeadline(current.order_type, current.status))}
        </h2>
        <OrderHeadline order={current} />
        <OrderFields order={current} />
      </section>
      {current.deposit_instructions && !isFinal(current.status) && (
        <DepositInstructions
          instructions={current.deposit_instructions}
          decimals={current.from.decimals}
        />
      )}
      <section className="card stack" aria-labelledby="order-progress">
        <h2 id="order-progress">{t('orders.timeline.title')}</h2>
        <StatusTimeline order={current} />
      </section>
      {isCancellable(current) && (
        // Canceling removes the whole cancel section: the focus goes to the order, whose status says "Canceled".
        <CancelOrder order={current} onCanceled={() => titleRef.current?.focus()} />
      )}
    </div>
  )
}

function OrderFields(props: { order: Order }) {
  const { t, language } = useI18n()
  const { order } = props
  const extra: Row[] = useTargetRows(
    order,
    isDeposit(order.order_type) ? t('orders.detail.into') : t('orders.review.to'),
  )
  if (order.note) extra.push([t('orders.note.label'), order.note])
  if (order.tx_hash) {
    extra.push([
      t('tx.hash'),
      <span key="hash" className="stack">
        <code className="address-text">{order.tx_hash}</code>
        <CopyButton text={order.tx_hash} thing={t('tx.hash')} />
      </span>,
    ])
  }
  extra.push([t('tx.created'), formatDateTime(language, order.created_at)])
  extra.push([t('orders.detail.id'), <code key="id">{order.id}</code>])
  return <PriceLines priced={order} extra={extra} />
}

/**
 * Cancelling asks first, in the page (no modal to trap focus): what happens
 * to the money, then "Yes, cancel" or "Keep". The server may have moved the
 * order on meanwhile: its 409 is said in words, and the page shows the new status.
 */
function CancelOrder(props: { order: Order; onCanceled: () => void }) {
  const { t, language } = useI18n()
  const cancel = useCancelOrder(props.order.id)
  const server = useNeedsServer()
  const [asking, setAsking] = useState(false)
  const questionRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (asking) questionRef.current?.focus()
  }, [asking])

  const { order } = props
  const refused =
    cancel.error instanceof ApiError && cancel.error.status === 409
      ? t('orders.cancel.tooLate')
      : cancel.error
        ? errorMessage(cancel.error, t, { language })
        : undefined

  if (!asking) {
    return (
      <div className="stack">
        <Button variant="secondary" onClick={() => setAsking(true)} {...server.disabledProps}>
          {t('orders.cancel.open')}
        </Button>
        {server.reason}
      </div>
    )
  }
  return (
    <section className="card stack order-cancel" aria-labelledby="order-cancel-title">
      <h2 id="order-cancel-title" ref={questionRef} tabIndex={-1}>
        {t('orders.cancel.question')}
      </h2>
      <p>
        {isDeposit(order.order_type)
          ? t('orders.cancel.depositEffect')
          : t('orders.cancel.effect', {
              amount: formatMoney(language, { amount: order.total, currency: order.from.currency }),
            })}
      </p>
      {refused && (
        <p className="alert alert-error" role="alert">
          {refused}
        </p>
      )}
      {/* The safe answer first, as in every confirmation of the app. */}
      <Button
        variant="secondary"
        block
        disabled={cancel.isPending}
        onClick={() => {
          cancel.reset()
          setAsking(false)
        }}
      >
        {t('orders.cancel.keep')}
      </Button>
      <Button
        block
        className="order-danger"
        busy={cancel.isPending}
        onClick={() =>
          cancel.mutate(undefined, {
            onSuccess: () => {
              setAsking(false)
              props.onCanceled()
            },
          })
        }
        {...server.disabledProps}
      >
        {cancel.isPending ? t('orders.cancel.canceling') : t('orders.cancel.confirm')}
      </Button>
      {server.reason}
    </section>
  )
}
