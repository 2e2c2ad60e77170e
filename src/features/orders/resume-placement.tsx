import { useEffect, useId, useRef, useState } from 'react'
import { Link } from 'wouter'
import type { Order } from '../../../contract/orders.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { Button, Notice, Spinner } from '../../ui/components.tsx'
import { isDefiniteRefusal, useConfirmOnce } from '../../ui/confirm-once.ts'
import { useNeedsServer, useOnline } from '../../ui/online.tsx'
import { usePlaceOrder } from './mutations.ts'
import {
  type PendingPlacement,
  PLACEMENT_SCOPE,
  type PlacementBody,
  pendingPlacement,
} from './pending-placement.ts'

/**
 * The confirmation this tab sent and never heard back about, read once when
 * the screen opens. Nothing is read again while the screen lives: its own
 * confirmations are the review step's business.
 */
export function usePendingPlacement() {
  const [placement] = useState(pendingPlacement)
  return placement
}

/**
 * Finishes a confirmation whose answer was lost (the tab reloaded, the PWA
 * was killed): it is sent again with the same request_id and quote, so the
 * server answers the order it placed — or refuses (QUOTE_EXPIRED and the
 * like), which proves nothing was placed. Until one of those arrives the
 * person sees this, never a form that could place a second order. It asks
 * by itself when the screen opens and when the connection comes back.
 */
export function ResumePlacement(props: {
  placement: PendingPlacement
  onPlaced: (order: Order) => void
  onRefused: () => void
}) {
  const { t, language } = useI18n()
  const titleId = useId()
  const place = usePlaceOrder()
  const server = useNeedsServer()
  const online = useOnline()
  const { placement, onPlaced, onRefused } = props
  const asked = useRef(false)
  // The stored confirmation's own choice: the hook hands back its request_id.
  const once = useConfirmOnce<PlacementBody>(PLACEMENT_SCOPE, placement.quote_id)

  const send = () => {
    const { order_type: orderType, request_id: _, ...body } = placement
    if (!once.start({ order_type: orderType, ...body })) return
    asked.current = true
    place.mutate(
      { orderType, body: { ...body, request_id: once.requestId } },
      {
        onSuccess: (order) => onPlaced(order),
        onError: (error) => {
          if (isDefiniteRefusal(error)) onRefused()
        },
        onSettled: (_order, error) => once.finish(error),
      },
    )
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per screen, and again when the connection returns
  useEffect(() => {
    if (online && (!asked.current || (place.isError && !isDefiniteRefusal(place.error)))) send()
  }, [online])

  const unknown = place.isError && !isDefiniteRefusal(place.error)
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('orders.pending.title')}</h2>
      {unknown ? (
        <>
          <p className="alert alert-error" role="alert">
            {errorMessage(place.error, t, { language })} {t('orders.pending.unknown')}
          </p>
          <Button block onClick={send} {...server.disabledProps}>
            {t('orders.review.retry')}
          </Button>
          {server.reason}
          <Link href={href.orders()}>{t('orders.review.seeHistory')}</Link>
        </>
      ) : (
        <Spinner label={t('orders.pending.checking')} />
      )}
    </section>
  )
}

/**
 * The orders area's part: a lost confirmation is finished here too, and
 * the outcome said in a line (the list shows the order once it is placed).
 */
export function PendingPlacementNotice() {
  const { t } = useI18n()
  const placement = usePendingPlacement()
  const [outcome, setOutcome] = useState<{ placed: Order } | 'refused'>()
  if (!placement) return null
  if (outcome === 'refused') return <Notice>{t('orders.pending.notPlaced')}</Notice>
  if (outcome) {
    return (
      <Notice>
        {t('orders.pending.placed')}{' '}
        <Link href={href.order(outcome.placed.id)}>{t('orders.pending.view')}</Link>
      </Notice>
    )
  }
  return (
    <ResumePlacement
      placement={placement}
      onPlaced={(placed) => setOutcome({ placed })}
      onRefused={() => setOutcome('refused')}
    />
  )
}
