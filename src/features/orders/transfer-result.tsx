import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect, useRef } from 'react'
import { Link, useLocation } from 'wouter'
import type { Transfer } from '../../../contract/transfers.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href, paths } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { transferQuery } from './people-queries.ts'

/**
 * The last step of paying someone: what happened in a sentence ("You sent
 * Anna S. €20.00", or that the money waits for the contact until a date),
 * the activity item, "Done" — and `more` (what else can follow: "Repeat this").
 */
export function TransferResult(props: { id: string; more?: (transfer: Transfer) => ReactNode }) {
  const { t, language } = useI18n()
  const [, navigate] = useLocation()
  const transfer = useQuery(transferQuery(props.id))
  const headingRef = useRef<HTMLHeadingElement>(null)
  const loaded = transfer.data !== undefined
  useEffect(() => {
    if (loaded) headingRef.current?.focus()
  }, [loaded])

  if (transfer.isPending) return <Pending paused={transfer.isPaused} />
  if (transfer.isError) {
    return (
      <LoadError
        error={transfer.error}
        what="transaction"
        back={{ href: paths.move, label: t('nav.move') }}
        onRetry={() => void transfer.refetch()}
      />
    )
  }
  const current = transfer.data
  const amount = formatMoney(language, current.amount)
  const name = current.counterparty.name
  const waiting = current.status === 'AWAITING_CLAIM'
  return (
    <section className="stack" aria-labelledby="transfer-result-title">
      <div className={`order-result order-result-${waiting ? 'progress' : 'success'}`}>
        <span className="order-result-mark" aria-hidden="true">
          {waiting ? '…' : '✓'}
        </span>
        <h1 id="transfer-result-title" ref={headingRef} tabIndex={-1}>
          {waiting ? t('people.done.waiting') : t('people.done.sent')}
        </h1>
        <p className="order-headline-amount">{amount}</p>
        <p role="status">
          {waiting
            ? t('people.done.waitingLine', {
                contact: current.contact ?? name,
                date: current.expires_at ? formatDateTime(language, current.expires_at) : '',
              })
            : t('people.done.sentLine', { amount, name })}
        </p>
        {current.note && <p className="muted">{current.note}</p>}
      </div>
      {props.more?.(current)}
      {current.activity_id && (
        <Link href={href.activityItem(current.activity_id)}>{t('people.done.view')}</Link>
      )}
      <Button block onClick={() => navigate(paths.move)}>
        {t('orders.result.done')}
      </Button>
    </section>
  )
}
