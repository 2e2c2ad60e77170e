import { Link } from 'wouter'
import { useI18n } from '../i18n/i18n.tsx'
import { ApiError } from '../net/api.ts'
import { Button, buttonClass } from './components.tsx'
import { ErrorSummary } from './error-summary.tsx'
import { SearchOffIcon } from './screen-icons.tsx'

/** What a screen was looking for, as its "doesn't exist" sentence names it. */
export type Resource =
  | 'order'
  | 'card'
  | 'wallet'
  | 'counterparty'
  | 'transaction'
  | 'account'
  | 'activity'
  | 'request'
  | 'page'

/**
 * Whether a failed read means "there is no such thing for you": a 404 (the
 * server answers another person's id exactly like a missing one), or a 422
 * that only refuses the id in the path (`/orders/not-an-id`). Either way
 * asking again cannot help, so it is never worded as a validation problem.
 */
export function isMissing(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.status === 404) return true
  const fields = error.problem?.errors ?? []
  return (
    error.status === 422 &&
    fields.length > 0 &&
    fields.every((entry) => entry.field.startsWith('/params/'))
  )
}

/** The way back from a screen that failed: where to, and what the link says. */
export interface Back {
  href: string
  label: string
}

/**
 * "This order doesn't exist", a sentence, and the one way back: what a
 * screen shows for an id nobody has, an unknown route, or a link to
 * something that is not the person's.
 */
export function Missing(props: { what: Resource; back: Back }) {
  const { t } = useI18n()
  return (
    <section className="card empty-state" aria-labelledby="missing-title">
      <span className="empty-state-icon">
        <SearchOffIcon size={28} />
      </span>
      <h1 id="missing-title" data-testid="missing">
        {t(`missing.${props.what}`)}
      </h1>
      <p className="lead">{t(props.what === 'page' ? 'missing.pageLead' : 'missing.lead')}</p>
      <Link href={props.back.href} className={buttonClass('primary')}>
        {props.back.label}
      </Link>
    </section>
  )
}

/**
 * A screen's own data failed to load: "doesn't exist" when it is missing
 * (isMissing), else the failure in words with "Try again" — a lost
 * connection or a 5xx keeps its own wording and can be retried.
 */
export function LoadError(props: {
  error: unknown
  what: Exclude<Resource, 'page'>
  back: Back
  onRetry: () => void
}) {
  const { t } = useI18n()
  if (isMissing(props.error)) return <Missing what={props.what} back={props.back} />
  return (
    <div className="stack">
      <ErrorSummary error={props.error} />
      <div className="row">
        <Button variant="secondary" onClick={props.onRetry}>
          {t('error.retry')}
        </Button>
        <Link href={props.back.href}>{props.back.label}</Link>
      </div>
    </div>
  )
}
