import { useInfiniteQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import { declineWords } from '../../i18n/declines.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { type Translate, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney, type MoneyOptions } from '../../i18n/money.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { type ActivityRow, groupCardActivity, isIncoming, type Purchase } from './card-activity.ts'
import type { ActivityQuery } from './queries.ts'

/**
 * A card's or an account's transactions, purchases grouped, newest first,
 * a page at a time. Loaded pages are kept on the device, so the list stays
 * readable offline; only "load more" needs the server.
 */
export function CardActivityList(props: {
  title: string
  query: ActivityQuery
  /** An account's list spans its cards: each row says which. */
  showCard?: boolean
  /** Beside the title, e.g. the CSV export. */
  actions?: ReactNode
}) {
  const { t } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const activity = useInfiniteQuery(props.query)
  const records = activity.data?.pages.flatMap((page) => page.data) ?? []
  const rows = groupCardActivity(records)

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <div className="card-tx-head">
        <h2 id={titleId}>{props.title}</h2>
        {props.actions}
      </div>
      {activity.isPending ? (
        activity.isPaused ? (
          <Pending paused />
        ) : (
          <ActivitySkeleton />
        )
      ) : activity.isError && records.length === 0 ? (
        <div className="stack">
          <ErrorSummary error={activity.error} />
          <div>
            <Button variant="secondary" onClick={() => activity.refetch()}>
              {t('error.retry')}
            </Button>
          </div>
        </div>
      ) : rows.length === 0 ? (
        <p className="muted">{t('cards.tx.empty')}</p>
      ) : (
        <>
          <ul className="card-tx-rows" aria-label={props.title}>
            {rows.map((row) => (
              <li key={row.key} className="card-tx-row" data-testid="card-tx-row">
                <Row row={row} showCard={props.showCard ?? false} />
              </li>
            ))}
          </ul>
          {activity.isFetchNextPageError && (
            <div className="stack">
              <ErrorSummary error={activity.error} />
            </div>
          )}
          {activity.hasNextPage && (
            <div>
              <Button
                variant="secondary"
                busy={activity.isFetchingNextPage}
                onClick={() => activity.fetchNextPage()}
                {...server.disabledProps}
              >
                {activity.isFetchingNextPage ? t('cards.tx.loadingMore') : t('cards.tx.more')}
              </Button>
              {server.reason}
            </div>
          )}
        </>
      )}
    </section>
  )
}

/** Three grey rows where the list will be; the words are for screen readers. */
function ActivitySkeleton() {
  const { t } = useI18n()
  return (
    <div>
      <p role="status" className="visually-hidden">
        {t('cards.tx.loading')}
      </p>
      <ul className="card-tx-rows" aria-hidden="true" data-testid="card-tx-skeleton">
        {[0, 1, 2].map((index) => (
          <li key={index} className="card-tx-row card-tx-skeleton" />
        ))}
      </ul>
    </div>
  )
}

function Row(props: { row: ActivityRow; showCard: boolean }) {
  return props.row.kind === 'purchase' ? (
    <PurchaseRow purchase={props.row} showCard={props.showCard} />
  ) : (
    <MovementRow transaction={props.row.transaction} showCard={props.showCard} />
  )
}

/** Why a payment was declined, in words, naming the limit it went over or the channel that is off. */
export function declineText(t: Translate, transaction: CardTransaction | undefined): string {
  return declineWords(
    t,
    transaction?.decline_reason,
    transaction?.exceeded_limit,
    transaction?.channel,
  )
}

function purchaseStateText(t: Translate, purchase: Purchase, money: (a: string) => string) {
  switch (purchase.state) {
    case 'pending':
      return t('cards.tx.pending')
    case 'completed':
      return purchase.authorizedAmount
        ? t('cards.tx.completedAuthorized', { amount: money(purchase.authorizedAmount) })
        : t('cards.tx.completed')
    case 'reversed':
      return t('cards.tx.reversed')
    case 'declined':
      return declineText(t, purchase.authorization)
  }
}

function CardTag(props: { last4: string | undefined; show: boolean }) {
  const { t } = useI18n()
  if (!props.show || !props.last4) return null
  return <span className="muted">{t('cards.endingIn', { last4: props.last4 })}</span>
}

function PurchaseRow(props: { purchase: Purchase; showCard: boolean }) {
  const { t, language } = useI18n()
  const { purchase } = props
  const money = (amount: string, options?: MoneyOptions) =>
    formatMoney(language, { amount: amount, currency: purchase.currency, chain: null }, options)
  const record = purchase.authorization ?? purchase.clearing ?? purchase.reversal
  const voided = purchase.state === 'declined' || purchase.state === 'reversed'
  return (
    <div className="card-tx">
      <div className="card-tx-main">
        <span className="card-tx-title">{purchase.merchant?.name ?? t('cards.tx.purchase')}</span>
        <span className="muted">
          <time dateTime={purchase.at}>{formatDateTime(language, purchase.at)}</time>
        </span>
        <CardTag last4={record?.card_last4 ?? undefined} show={props.showCard} />
      </div>
      <div className="card-tx-side">
        <span className={voided ? 'card-tx-void' : undefined}>
          {money(purchase.amount, { sign: 'out' })}
        </span>
        <span className={`card-tx-state card-tx-state-${purchase.state}`}>
          {purchaseStateText(t, purchase, money)}
        </span>
      </div>
      {purchase.refunds.length > 0 && (
        <ul className="card-tx-refunds" aria-label={t('cards.tx.refunds')}>
          {purchase.refunds.map((refund) => (
            <li key={refund.id}>
              {t('cards.tx.refunded', { amount: money(refund.amount) })} ·{' '}
              <time dateTime={refund.created_at}>
                {formatDateTime(language, refund.created_at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function MovementRow(props: { transaction: CardTransaction; showCard: boolean }) {
  const { t, language } = useI18n()
  const { transaction } = props
  const incoming = isIncoming(transaction)
  // A declined fee or top-up moved nothing: struck through, without a sign.
  const declined = transaction.status === 'DECLINED'
  // The sign inside the amount: right to left, the amount is one island with it (money.ts).
  const amount = formatMoney(
    language,
    { amount: transaction.amount, currency: transaction.currency, chain: null },
    declined ? {} : { sign: incoming ? 'in' : 'out' },
  )
  return (
    <div className="card-tx">
      <div className="card-tx-main">
        <span className="card-tx-title">
          {transaction.type === 'FEE' && transaction.fee_kind
            ? t(`cards.tx.fee.${transaction.fee_kind}`)
            : t(`cards.tx.type.${transaction.type}`)}
        </span>
        <span className="muted">
          <time dateTime={transaction.created_at}>
            {formatDateTime(language, transaction.created_at)}
          </time>
        </span>
        <CardTag last4={transaction.card_last4 ?? undefined} show={props.showCard} />
      </div>
      <div className="card-tx-side">
        {declined ? (
          <span className="card-tx-void">{amount}</span>
        ) : (
          <span className={incoming ? 'amount-deposit' : undefined}>{amount}</span>
        )}
        {declined && (
          <span className="card-tx-state card-tx-state-declined">
            {declineText(t, transaction)}
          </span>
        )}
      </div>
    </div>
  )
}
