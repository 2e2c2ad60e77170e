import { useId } from 'react'
import type { Quote } from '../../../contract/orders.ts'
import { type Language, type Translate, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Alert, Button, Skeleton } from '../../ui/components.tsx'
import type { QuoteProblem } from './order-error.ts'
import { PriceLines } from './price-lines.tsx'
import type { LiveQuote } from './use-live-quote.ts'

/** What the price region speaks: the amount received and the total paid. */
export const announcement = (t: Translate, language: Language, quote: Quote) =>
  t('orders.quote.announce', {
    received: formatMoney(language, { amount: quote.to.amount, currency: quote.to.currency }),
    total: formatMoney(language, { amount: quote.total, currency: quote.from.currency }),
  })

/** The live price under the amounts: loading, the lines with their countdown, or why there is none. */
export function QuotePreview(props: {
  live: LiveQuote
  issue: QuoteProblem | undefined
  asked: boolean
}) {
  const { t } = useI18n()
  const { live, issue } = props
  const titleId = useId()
  if (!props.asked) return <p className="muted">{t('orders.quote.enterAmount')}</p>
  if (live.paused) return <Alert tone="warning">{t('orders.quote.offline')}</Alert>
  if (issue) {
    // On a field, the message is read there; said once here too, for screen readers.
    if (issue.field) {
      return (
        <p className="visually-hidden" role="alert">
          {issue.message}
        </p>
      )
    }
    return (
      <div className="stack">
        <p className="alert alert-error" role="alert">
          {issue.message}
        </p>
        {issue.retry && (
          <Button variant="secondary" onClick={live.refetch}>
            {t('orders.quote.retry')}
          </Button>
        )}
      </div>
    )
  }
  if (live.stopped) {
    return (
      <div className="stack">
        <Alert tone="warning">{t('orders.quote.stopped')}</Alert>
        <Button variant="secondary" onClick={live.refetch}>
          {t('orders.review.refresh')}
        </Button>
      </div>
    )
  }
  if (!live.quote) return <Skeleton label={t('orders.quote.loading')} shape="lines" count={4} />
  return (
    <section
      className={live.current ? 'order-quote' : 'order-quote order-quote-stale'}
      aria-labelledby={titleId}
      aria-busy={!live.current || undefined}
    >
      <h2 id={titleId} className="visually-hidden">
        {t('orders.quote.title')}
      </h2>
      <PriceLines priced={live.quote} />
      <p className="muted order-countdown" aria-hidden="true">
        {!live.current || live.expired
          ? t('orders.quote.updating')
          : t('orders.quote.fixedFor', { seconds: live.secondsLeft })}
      </p>
    </section>
  )
}
