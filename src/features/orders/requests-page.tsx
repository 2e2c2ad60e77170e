import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import type { PaymentRequest } from '../../../contract/payment-requests.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { paths } from '../../paths.ts'
import { Button, buttonClass } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useCancelPaymentRequest } from './people-mutations.ts'
import { paymentRequestsQuery } from './people-queries.ts'
import { REQUEST_STATUS_WORDS } from './request-labels.ts'
import './orders.css'
import './people.css'

/**
 * /requests — the payment requests I made, the newest first: how much, for
 * what, where each stands; an open one's link to copy again, and "Cancel"
 * (asked first: the link stops working).
 */
export default function RequestsPage() {
  const { t } = useI18n()
  const requests = useQuery(paymentRequestsQuery())
  const cancel = useCancelPaymentRequest()
  const server = useNeedsServer()
  const [canceling, setCanceling] = useState<PaymentRequest>()
  const list = requests.data?.data ?? []

  return (
    <div className="stack">
      <PageHeader
        id="requests-title"
        title={t('people.requests.title')}
        back={{ href: paths.move, label: t('nav.move') }}
        actions={
          <Link href={paths.requestMoney} className={buttonClass('primary')}>
            {t('people.request.title')}
          </Link>
        }
      />
      {requests.isPending ? (
        <Pending paused={requests.isPaused} shape="rows" />
      ) : requests.isError ? (
        <div className="stack">
          <ErrorSummary error={requests.error} />
          <Button variant="secondary" onClick={() => void requests.refetch()}>
            {t('error.retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <section className="card empty-state">
          <p className="lead">{t('people.requests.empty')}</p>
        </section>
      ) : (
        <ul className="request-list" aria-labelledby="requests-title">
          {list.map((request) => (
            <RequestRow
              key={request.id}
              request={request}
              onCancel={() => {
                cancel.reset()
                setCanceling(request)
              }}
              disabledProps={server.disabledProps}
            />
          ))}
        </ul>
      )}
      {server.reason}
      <ConfirmDialog
        open={canceling !== undefined}
        title={t('people.requests.cancelTitle')}
        message={t('people.requests.cancelMessage')}
        confirmLabel={t('people.requests.cancelConfirm')}
        busy={cancel.isPending}
        onConfirm={() =>
          canceling && cancel.mutate(canceling.id, { onSuccess: () => setCanceling(undefined) })
        }
        onCancel={() => setCanceling(undefined)}
      >
        <ErrorSummary error={cancel.error} />
      </ConfirmDialog>
    </div>
  )
}

function RequestRow(props: {
  request: PaymentRequest
  onCancel: () => void
  disabledProps: object
}) {
  const { t, language } = useI18n()
  const { request } = props
  const open = request.status === 'OPEN'
  return (
    <li className="card stack request-row">
      <div className="request-row-head">
        <p className="request-row-amount">{formatMoney(language, request.amount)}</p>
        <p className={`request-status request-status-${request.status.toLowerCase()}`}>
          {t(REQUEST_STATUS_WORDS[request.status])}
        </p>
      </div>
      {request.note && <p>{request.note}</p>}
      <p className="muted">
        {request.paid_at
          ? t('people.requests.paidAt', { date: formatDateTime(language, request.paid_at) })
          : t('people.requests.createdAt', { date: formatDateTime(language, request.created_at) })}
      </p>
      {open && (
        <div className="share-request-actions">
          <CopyButton text={request.url} thing={t('people.request.link')} />
          <Button variant="quiet" onClick={props.onCancel} {...props.disabledProps}>
            {t('people.requests.cancel')}
          </Button>
        </div>
      )}
    </li>
  )
}
