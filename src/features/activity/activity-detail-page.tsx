import { useQuery } from '@tanstack/react-query'
import type { ActivityDetail, ActivityItem } from '../../../contract/activity.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { activityQuery } from '../../queries/activity.ts'
import { useDisplayValue } from '../../queries/display-value.ts'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { Facts } from './activity-facts.tsx'
import { ActivityAvatar, FigureText } from './activity-row.tsx'
import { Technical } from './activity-technical.tsx'
import { DisputePayment } from './dispute-payment.tsx'
import { Receipt } from './receipt-section.tsx'
import './activity.css'
import { activityTitle, avatarOf, eventWords, figures, statusWord, topUpWords } from './wording.ts'

/**
 * /activity/:id — one thing that happened, in plain words first: what, to or
 * from whom, when, where it stands (with its steps), the fee and the rate.
 * The ledger records with their hashes come last, folded under "Technical
 * details", for whoever wants them.
 */
export default function ActivityDetailPage(props: { id: string }) {
  const { t } = useI18n()
  const item = useQuery(activityQuery(props.id))
  const back = { href: href.activity(), label: t('activity.back') }

  if (item.isPending) return <Pending paused={item.isPaused} shape="page" />
  if (item.isError) {
    return (
      <LoadError error={item.error} what="activity" back={back} onRetry={() => item.refetch()} />
    )
  }
  const detail = item.data
  return (
    <div className="stack">
      <PageHeader id="activity-title" title={activityTitle(t, detail)} back={back} />
      <Summary item={detail} />
      <Facts item={detail} />
      <DisputePayment item={detail} />
      <Progress detail={detail} />
      <Receipt id={detail.id} />
      <Technical detail={detail} />
    </div>
  )
}

/** The item at the top, under its name: its picture, the amount large, its status. */
function Summary(props: { item: ActivityItem }) {
  const { t, language } = useI18n()
  const displayValue = useDisplayValue()
  const { item } = props
  const { primary, secondary } = figures(item)
  const under = secondary
    ? undefined
    : (topUpWords(t, language, item)?.toCard ?? displayValue(primary.money))
  const tone =
    item.status === 'failed' || item.status === 'declined'
      ? 'failed'
      : item.status === 'pending'
        ? 'pending'
        : item.status === 'complete'
          ? 'complete'
          : 'void'
  return (
    <section className="card activity-summary" aria-labelledby="activity-title">
      <ActivityAvatar avatar={avatarOf(item)} size="large" />
      <p className="activity-summary-amount" data-testid="activity-amount">
        <FigureText figure={primary} />
      </p>
      {secondary && (
        <p className="activity-summary-under">
          <FigureText figure={secondary} />
        </p>
      )}
      {under && <p className="activity-summary-under muted">{under}</p>}
      <p className={`status-chip status-chip-${tone}`} data-testid="activity-status">
        {statusWord(t, item)}
      </p>
    </section>
  )
}

/** Its steps, oldest first, each with its time (and amount, for a card's clearing or refund). */
function Progress(props: { detail: ActivityDetail }) {
  const { t, language } = useI18n()
  const { detail } = props
  if (detail.timeline.length === 0) return null
  return (
    <section className="card stack" aria-labelledby="activity-progress">
      <h2 id="activity-progress">{t('activity.detail.progress')}</h2>
      <ol className="activity-timeline">
        {detail.timeline.map((event, index) => {
          const failed = event.status === 'failed' || event.status === 'declined'
          return (
            <li
              // One step per time: a status may come twice (a retry), its moment does not.
              key={`${event.code}-${event.at}`}
              className={failed ? 'activity-step activity-step-failed' : 'activity-step'}
              aria-current={index === detail.timeline.length - 1 ? 'step' : undefined}
            >
              <span className="activity-step-mark" aria-hidden="true">
                {failed ? '✕' : '✓'}
              </span>
              <span className="activity-step-text">
                <span>{eventWords(t, event.code, event.status, detail.type)}</span>
                <span className="muted">
                  <time dateTime={event.at}>{formatDateTime(language, event.at)}</time>
                  {event.amount && ` · ${formatMoney(language, event.amount)}`}
                </span>
              </span>
            </li>
          )
        })}
      </ol>
    </section>
  )
}
