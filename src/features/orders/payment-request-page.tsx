import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import type { PaymentRequestView } from '../../../contract/payment-requests.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href, paths } from '../../paths.ts'
import { useHaptics, useMainButton } from '../../telegram/controls.tsx'
import { Button, buttonClass } from '../../ui/components.tsx'
import { useConfirmOnce } from '../../ui/confirm-once.ts'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { walletName } from './labels.ts'
import { usePayRequest } from './people-mutations.ts'
import { paymentRequestQuery, paymentRequestsQuery } from './people-queries.ts'
import { walletsQuery } from './queries.ts'
import { REQUEST_STATUS_WORDS } from './request-labels.ts'
import './orders.css'
import './people.css'

/** The idempotency scope of paying a request (ui/confirm-once.ts). */
const PAY_SCOPE = 'request-pay'

/**
 * /pay/:id — a payment request as anyone with its link sees it: who asks,
 * how much, for what, where it stands. Signed in, "Pay" from a wallet that
 * holds the currency (once: a second payer hears it was paid); signed out,
 * sign in or sign up — and back here after either.
 */
export default function PaymentRequestPage(props: { id: string; signedIn: boolean }) {
  const { t, language } = useI18n()
  const request = useQuery(paymentRequestQuery(props.id))
  // Held here, not in the form: once paid the view reads PAID and the form goes, the answer stays.
  const pay = usePayRequest(props.id)
  // The requester opening their own link: nothing to pay, the way to their requests instead.
  const mine = useQuery({ ...paymentRequestsQuery(), enabled: props.signedIn })
  if (request.isPending) return <Pending paused={request.isPaused} shape="card" />
  if (request.isError) {
    return (
      <LoadError
        error={request.error}
        what="request"
        back={{ href: paths.home, label: t('nav.home') }}
        onRetry={() => void request.refetch()}
      />
    )
  }
  const view = request.data
  return (
    <section className="stack payment-request" aria-labelledby="payment-request-title">
      <div className="card stack payment-request-card">
        <span className="person-avatar person-avatar-large" aria-hidden="true">
          {view.requester.initial}
        </span>
        <h1 id="payment-request-title">
          {t('people.payRequest.title', { name: view.requester.display_name })}
        </h1>
        <p className="order-headline-amount">{formatMoney(language, view.amount)}</p>
        {view.note && <p className="payment-request-note">{view.note}</p>}
        <p className={`request-status request-status-${view.status.toLowerCase()}`}>
          {t(REQUEST_STATUS_WORDS[view.status])}
          {view.status === 'OPEN' &&
            view.expires_at &&
            ` · ${t('people.payRequest.until', { date: formatDateTime(language, view.expires_at) })}`}
        </p>
      </div>
      {pay.data ? (
        <Paid view={view} activity={pay.data.transfer.activity_id} />
      ) : props.signedIn && mine.isPending ? (
        <Pending paused={mine.isPaused} shape="lines" />
      ) : mine.data?.data.some((own) => own.id === view.id) ? (
        <div className="stack">
          <p className="lead">{t('people.payRequest.yours')}</p>
          <Link href={paths.requests}>{t('people.requests.all')}</Link>
        </div>
      ) : view.status !== 'OPEN' ? null : props.signedIn ? (
        <PayRequest view={view} pay={pay} />
      ) : (
        <SignedOut id={view.id} />
      )}
    </section>
  )
}

function SignedOut(props: { id: string }) {
  const { t } = useI18n()
  const back = href.paymentRequest(props.id)
  return (
    <div className="stack">
      <p className="lead">{t('people.payRequest.signInLead')}</p>
      <Link href={href.signUp({ next: back })} className={buttonClass('primary', true)}>
        {t('people.payRequest.signUp')}
      </Link>
      <Link href={href.signIn({ next: back })} className={buttonClass('secondary', true)}>
        {t('people.payRequest.signIn')}
      </Link>
    </div>
  )
}

function Paid(props: { view: PaymentRequestView; activity: string | null }) {
  const { t } = useI18n()
  const statusRef = useRef<HTMLParagraphElement>(null)
  useEffect(() => statusRef.current?.focus(), [])
  return (
    <div className="stack">
      <p className="alert alert-success" role="status" ref={statusRef} tabIndex={-1}>
        {t('people.payRequest.paid', { name: props.view.requester.display_name })}
      </p>
      {props.activity && (
        <Link href={href.activityItem(props.activity)}>{t('people.done.view')}</Link>
      )}
      <Link href={paths.home} className={buttonClass('primary', true)}>
        {t('orders.result.done')}
      </Link>
    </div>
  )
}

function PayRequest(props: { view: PaymentRequestView; pay: ReturnType<typeof usePayRequest> }) {
  const { t, language } = useI18n()
  const { view } = props
  const server = useNeedsServer()
  const haptic = useHaptics()
  const wallets = useQuery({ ...walletsQuery(), refetchOnMount: 'always' })
  const { pay } = props
  const [chosen, setChosen] = useState<string>()
  const list = wallets.data?.data ?? []
  const holding = (uuid: string) =>
    list
      .find((wallet) => wallet.uuid === uuid)
      ?.balances.find((balance) => balance.currency_uuid === view.amount.currency_uuid)
      ?.available ?? '0'
  const enough = (uuid: string) =>
    compare(parseDecimal(holding(uuid)), parseDecimal(view.amount.amount)) >= 0
  // Unless the person picks: the first wallet that can pay it.
  const wallet =
    list.find((candidate) => candidate.uuid === chosen) ??
    list.find((candidate) => enough(candidate.uuid)) ??
    list[0]
  const once = useConfirmOnce<{ wallet_uuid: string }>(
    PAY_SCOPE,
    wallet ? `${view.id}:${wallet.uuid}` : undefined,
  )
  const short = wallet !== undefined && !enough(wallet.uuid)
  const canPay = wallet !== undefined && !short && !pay.isPending && !server.offline

  const confirm = () => {
    if (!wallet || !canPay || !once.start({ wallet_uuid: wallet.uuid })) return
    pay.mutate(
      { wallet_uuid: wallet.uuid, request_id: once.requestId },
      {
        onSuccess: () => haptic('success'),
        onError: () => haptic('error'),
        onSettled: (_answer, error) => once.finish(error),
      },
    )
  }

  useMainButton(
    wallet
      ? {
          text: pay.isPending
            ? t('people.pay.sending')
            : t('people.payRequest.pay', { amount: formatMoney(language, view.amount) }),
          enabled: canPay,
          busy: pay.isPending,
          onClick: confirm,
        }
      : undefined,
  )

  if (wallets.isPending) return <Pending paused={wallets.isPaused} shape="lines" />
  if (wallets.isError) return <ErrorSummary error={wallets.error} />
  if (!wallet) return <p className="lead">{t('people.payRequest.noWallet')}</p>
  return (
    <div className="stack">
      {list.length > 1 && (
        <SelectField
          label={t('people.payRequest.from')}
          name="wallet"
          value={wallet.uuid}
          onChange={(event) => setChosen(event.target.value)}
        >
          {list.map((candidate) => (
            <option key={candidate.uuid} value={candidate.uuid}>
              {t('people.payRequest.walletOption', {
                wallet: walletName(t, candidate),
                available: formatMoney(language, {
                  ...view.amount,
                  amount: holding(candidate.uuid),
                }),
              })}
            </option>
          ))}
        </SelectField>
      )}
      {short && (
        <p className="alert alert-warning">
          {t('people.payRequest.short', {
            available: formatMoney(language, { ...view.amount, amount: holding(wallet.uuid) }),
          })}
        </p>
      )}
      <ErrorSummary error={pay.error} />
      <Button
        block
        busy={pay.isPending}
        onClick={confirm}
        disabled={!canPay}
        {...server.disabledProps}
      >
        {pay.isPending
          ? t('people.pay.sending')
          : t('people.payRequest.pay', { amount: formatMoney(language, view.amount) })}
      </Button>
      {server.reason}
    </div>
  )
}
