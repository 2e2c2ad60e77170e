import type { ReactNode, RefObject } from 'react'
import { Link } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { useMainButton } from '../../telegram/controls.tsx'
import { Alert, Button, Notice } from '../../ui/components.tsx'
import { useSecondsLeft } from '../../ui/countdown.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { KycPrompt } from '../../ui/kyc-prompt.tsx'
import type { useNeedsServer } from '../../ui/online.tsx'
import type { OrderKind } from './labels.ts'
import type { OrderProblem } from './order-error.ts'
import { type Row, useTargetRows } from './order-target.tsx'
import { PriceLines } from './price-lines.tsx'
import { localExpiry } from './use-live-quote.ts'
import type { OrderFlowProps, Review } from './use-order-flow.ts'

interface ReviewProps {
  review: Review
  kind: OrderKind
  note: string
  details: OrderFlowProps['details']
  headingRef: RefObject<HTMLHeadingElement | null>
  placing: boolean
  problem: OrderProblem | undefined
  refreshing: boolean
  refreshError: unknown
  onConfirm: () => void
  onRefresh: () => void
  onBack: () => void
  server: ReturnType<typeof useNeedsServer>
}

/**
 * Everything that will happen, and one primary action: confirm — or, once
 * the price has expired or was refused, get a new price first. The target in
 * full: a crypto address whole, in groups of four, with its network; a bank
 * account's IBAN. After a lost answer the only safe move is confirming again
 * with the same request_id, even past the countdown: the server answers the
 * first order if there was one, or QUOTE_EXPIRED if there was none. Until
 * then there is no way back to the form (a new price would mean a new
 * request_id), only to the history.
 */
export function OrderReviewStep(props: ReviewProps) {
  const { t } = useI18n()
  const { review, server, problem } = props
  const { quote } = review
  const secondsLeft = useSecondsLeft(localExpiry(quote, review.receivedAt))
  const ambiguous = problem?.recovery === 'retry'
  const unresolved = props.placing || ambiguous
  const mustRequote = !unresolved && (problem?.recovery === 'requote' || secondsLeft === 0)
  const mustEdit = !props.placing && problem?.recovery === 'edit'

  const lines: Row[] = [...useTargetRows(quote, t('orders.review.to'))]
  if (props.details) lines.push(...props.details(quote))
  if (props.note) lines.push([t('orders.note.label'), props.note])

  // In Telegram the MainButton carries the review's primary action too.
  useMainButton(
    mustEdit
      ? { text: t('orders.review.change'), enabled: true, busy: false, onClick: props.onBack }
      : mustRequote
        ? {
            text: props.refreshing ? t('orders.review.refreshing') : t('orders.review.refresh'),
            enabled: !props.refreshing && !server.offline,
            busy: props.refreshing,
            onClick: props.onRefresh,
          }
        : {
            text: props.placing
              ? t('orders.review.confirming')
              : ambiguous
                ? t('orders.review.retry')
                : t('orders.review.confirm'),
            enabled: !props.placing && !server.offline,
            busy: props.placing,
            onClick: props.onConfirm,
          },
  )

  let primary: ReactNode
  if (mustEdit) {
    primary = (
      <Button block onClick={props.onBack}>
        {t('orders.review.change')}
      </Button>
    )
  } else if (mustRequote) {
    primary = (
      <Button block busy={props.refreshing} onClick={props.onRefresh} {...server.disabledProps}>
        {props.refreshing ? t('orders.review.refreshing') : t('orders.review.refresh')}
      </Button>
    )
  } else {
    primary = (
      <Button block busy={props.placing} onClick={props.onConfirm} {...server.disabledProps}>
        {props.placing
          ? t('orders.review.confirming')
          : ambiguous
            ? t('orders.review.retry')
            : t('orders.review.confirm')}
      </Button>
    )
  }

  return (
    <section className="stack" aria-labelledby="order-review-title">
      <h1 id="order-review-title" ref={props.headingRef} tabIndex={-1}>
        {t('orders.review.title')}
      </h1>
      <p className="lead">{t(`orders.explain.${quote.order_type}`)}</p>
      {review.refreshed && (
        <Notice>
          {review.refreshed === 'destination'
            ? t('orders.review.destinationChanged')
            : t('orders.review.refreshed')}
        </Notice>
      )}
      <div className="card stack">
        <PriceLines priced={quote} extra={lines} />
      </div>
      {problem ? (
        <div className="stack">
          <p className="alert alert-error" role="alert">
            {problem.message}
            {ambiguous && ` ${t('orders.review.unknown')}`}
          </p>
          {problem.verify && <KycPrompt />}
          {(problem.seeHistory || ambiguous) && (
            <Link href={href.orders({ wallet: quote.wallet_uuid })}>
              {t('orders.review.seeHistory')}
            </Link>
          )}
        </div>
      ) : mustRequote ? (
        <Alert tone="warning">{t('orders.review.expired')}</Alert>
      ) : (
        <p className="muted order-countdown">
          {t('orders.review.confirmWithin', { seconds: secondsLeft })}
        </p>
      )}
      <ErrorSummary error={props.refreshError} />
      {primary}
      {server.reason}
      {!mustEdit && !ambiguous && (
        <Button variant="secondary" block onClick={props.onBack} disabled={props.placing}>
          {t('orders.review.back')}
        </Button>
      )}
    </section>
  )
}
