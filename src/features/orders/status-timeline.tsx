import type { Order, OrderStatus } from '../../../contract/orders.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { eventText, isFinal, orderStatusLabel, statusTone } from './labels.ts'

/** The road an order takes when all goes well; a final failure ends it early. */
const HAPPY_PATH: readonly OrderStatus[] = ['NEW', 'PENDING', 'COMPLETE']

/**
 * Every status the order has had, oldest first, as an ordered list: the one
 * it is in now marked `aria-current="step"`, the steps still ahead listed
 * too (so the person sees where it is going), a final state set apart by
 * tone and words, not by colour alone.
 */
export function StatusTimeline(props: { order: Order }) {
  const { t, language } = useI18n()
  const { order } = props
  const events = order.timeline
  const reached = new Set(events.map((event) => event.status))
  const ahead = isFinal(order.status) ? [] : HAPPY_PATH.filter((status) => !reached.has(status))

  return (
    <ol className="order-timeline" aria-label={t('orders.timeline.label')}>
      {events.map((event, index) => {
        const last = index === events.length - 1
        const tone = statusTone(event.status)
        const said = eventText(t, event.code)
        return (
          <li
            // The same status may come twice (a retry); its place in time does not.
            key={`${event.status}-${event.at}`}
            className={`order-step order-step-done order-step-${tone}`}
            aria-current={last ? 'step' : undefined}
          >
            <span className="order-step-mark" aria-hidden="true">
              {tone === 'failure' ? '✕' : '✓'}
            </span>
            <span className="order-step-text">
              <span className="order-step-status">{orderStatusLabel(t, event.status)}</span>
              <time className="muted" dateTime={event.at}>
                {formatDateTime(language, event.at)}
              </time>
              {/* Worded from the event's code: the server's English note is for API users. */}
              {said && <span className="muted">{said}</span>}
            </span>
          </li>
        )
      })}
      {ahead.map((status) => (
        <li key={status} className="order-step order-step-ahead">
          <span className="order-step-mark" aria-hidden="true" />
          <span className="order-step-text">
            <span className="order-step-status">{orderStatusLabel(t, status)}</span>
            <span className="muted">{t('orders.timeline.ahead')}</span>
          </span>
        </li>
      ))}
    </ol>
  )
}
