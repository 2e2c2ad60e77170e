import { useQueryClient } from '@tanstack/react-query'
import {
  type FormEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import { Link } from 'wouter'
import type { Order, Quote, QuoteQuery } from '../../../contract/orders.ts'
import { href } from '../../app/paths.ts'
import { formatAmount } from '../../i18n/format.ts'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { Alert, Button, Notice, Spinner, TextField } from '../../ui/components.tsx'
import { useSecondsLeft } from '../../ui/countdown.ts'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { readAmount } from './amount-input.ts'
import { type OrderKind, sideLabels } from './labels.ts'
import { usePlaceOrder } from './mutations.ts'
import { orderProblem, quoteProblem } from './order-error.ts'
import { OrderResult } from './order-result.tsx'
import { PriceLines } from './price-lines.tsx'
import { quoteQuery } from './queries.ts'
import { type LiveQuote, localExpiry, useLiveQuote } from './use-live-quote.ts'

/** Everything a quote needs but the amount: what each action's own fields decide. */
export type QuoteRequest = Omit<QuoteQuery, 'amount_from' | 'amount_to'>

/** A side of the order as the form knows it before any quote: its currency and decimals. */
export interface Side {
  currency: string
  decimals: number
}

type AmountSide = 'from' | 'to'

type Step =
  | { name: 'form' }
  | {
      name: 'review'
      query: QuoteQuery
      quote: Quote
      receivedAt: number
      /**
       * The idempotency key of this confirmation, fixed for this quote: a
       * double tap and a retry after a lost answer send the same one, so the
       * server places one order at most. A new quote (a new price) gets a new key.
       */
      requestId: string
      refreshed: boolean
    }
  | { name: 'result'; orderId: string }

/** A note travels with the order (the payment reference of a bank payout): the API's limit. */
const NOTE_MAX = 140

export interface OrderFlowProps {
  kind: OrderKind
  title: string
  lead?: string
  /** Undefined while the action's own fields are incomplete. */
  request: QuoteRequest | undefined
  from: Side | undefined
  to: Side | undefined
  /** What the paying wallet has in `from`; undefined when nothing leaves it (a deposit). */
  available?: string
  /** The action's own fields: wallet, currencies, destination. */
  fields: ReactNode
  /** Said under the amounts: limits, an indicative rate. */
  hint?: ReactNode
  /** Whether the person may add a note (sends: it becomes the payment reference). */
  note?: boolean
  /** More to show on the result screen (a deposit's bank details). */
  result?: (order: Order) => ReactNode
}

/**
 * Every money action in three steps, one primary button each (the Telegram
 * MainButton can stand in for it): the form with a live quote, the review of
 * everything that will happen, and the result with the order's status.
 */
export function OrderFlow(props: OrderFlowProps) {
  const { t, language } = useI18n()
  const queryClient = useQueryClient()
  const server = useNeedsServer()
  const place = usePlaceOrder()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [step, setStep] = useState<Step>({ name: 'form' })
  const [amount, setAmount] = useState<{ side: AmountSide; text: string }>({
    side: 'from',
    text: '',
  })
  const [note, setNote] = useState('')
  const [refreshing, setRefreshing] = useState(false)
  const [refreshError, setRefreshError] = useState<unknown>(null)
  // A second tap can arrive before React has disabled the button: a synchronous latch.
  const inFlight = useRef(false)

  const typedSide = amount.side === 'from' ? props.from : props.to
  const reading = typedSide ? readAmount(amount.text, typedSide.decimals, language) : undefined
  const query: QuoteQuery | undefined =
    props.request && reading?.ok
      ? {
          ...props.request,
          [amount.side === 'from' ? 'amount_from' : 'amount_to']: reading.amount,
        }
      : undefined
  const live = useLiveQuote(query, step.name === 'form')

  const firstRender = useRef(true)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    // The new step's heading takes the focus, so keyboard and screen-reader users start there.
    if (firstRender.current) firstRender.current = false
    else headingRef.current?.focus()
  }, [step.name])

  const labels = sideLabels(t, props.kind)
  const overspent =
    live.current &&
    props.available !== undefined &&
    compare(parseDecimal(live.quote!.total), parseDecimal(props.available)) > 0

  const canReview = live.current && !live.expired && !overspent && query !== undefined

  const review = (event: FormEvent) => {
    event.preventDefault()
    if (!canReview || !live.quote) return
    place.reset()
    setStep({
      name: 'review',
      query: query!,
      quote: live.quote,
      receivedAt: live.receivedAt,
      requestId: crypto.randomUUID(),
      refreshed: false,
    })
  }

  const backToForm = () => {
    place.reset()
    setRefreshError(null)
    setStep({ name: 'form' })
  }

  if (step.name === 'result') {
    return <OrderResult orderId={step.orderId} headingRef={headingRef} extra={props.result} />
  }

  if (step.name === 'review') {
    const confirm = () => {
      if (inFlight.current) return
      inFlight.current = true
      const trimmed = note.trim()
      place.mutate(
        {
          orderType: step.quote.order_type,
          body: {
            quote_id: step.quote.quote_id,
            request_id: step.requestId,
            ...(trimmed && { note: trimmed }),
          },
        },
        {
          onSuccess: (order) => setStep({ name: 'result', orderId: order.id }),
          onSettled: () => {
            inFlight.current = false
          },
        },
      )
    }
    const refresh = async () => {
      setRefreshing(true)
      setRefreshError(null)
      try {
        const quote = await queryClient.fetchQuery({ ...quoteQuery(step.query), staleTime: 0 })
        place.reset()
        setStep({
          ...step,
          quote,
          receivedAt: Date.now(),
          requestId: crypto.randomUUID(),
          refreshed: true,
        })
      } catch (error) {
        setRefreshError(error)
      } finally {
        setRefreshing(false)
      }
    }
    return (
      <Review
        step={step}
        kind={props.kind}
        note={note.trim()}
        headingRef={headingRef}
        placing={place.isPending}
        error={place.error}
        refreshing={refreshing}
        refreshError={refreshError}
        onConfirm={confirm}
        onRefresh={refresh}
        onBack={backToForm}
        server={server}
      />
    )
  }

  const computed = (side: AmountSide) =>
    live.current && live.quote ? inputText(live.quote[side].amount, language) : ''
  const shownAmount = (side: AmountSide) => (amount.side === side ? amount.text : computed(side))
  const readingError =
    reading && !reading.ok && reading.problem !== 'empty' && typedSide
      ? amountProblem(t, reading.problem, typedSide, language)
      : undefined
  const errorOf = (side: AmountSide) => {
    if (amount.side === side && readingError) return readingError
    if (side === 'from' && overspent) return t('orders.amount.overspent')
    return undefined
  }
  const fieldLabel = (side: AmountSide) => {
    const currency = side === 'from' ? props.from?.currency : props.to?.currency
    const label = side === 'from' ? labels.pay : labels.receive
    return currency ? t('orders.amount.label', { label, currency }) : label
  }
  const type = (side: AmountSide) => (text: string) => setAmount({ side, text })

  return (
    <form className="stack" onSubmit={review} noValidate>
      <h1 ref={headingRef} tabIndex={-1}>
        {props.title}
      </h1>
      {props.lead && <p className="lead">{props.lead}</p>}
      {props.fields}
      <div className="order-amounts stack">
        <TextField
          label={fieldLabel('from')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={amount.side === 'to' && live.updating ? '…' : '0'}
          value={shownAmount('from')}
          onChange={(event) => type('from')(event.target.value)}
          disabled={!props.from}
          error={errorOf('from')}
          hint={
            props.available !== undefined && props.from
              ? t('orders.amount.available', {
                  amount: formatAmount(
                    language,
                    props.available,
                    props.from.decimals,
                    props.from.currency,
                  ),
                })
              : undefined
          }
        />
        <TextField
          label={fieldLabel('to')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={amount.side === 'from' && live.updating ? '…' : '0'}
          value={shownAmount('to')}
          onChange={(event) => type('to')(event.target.value)}
          disabled={!props.to}
          error={errorOf('to')}
          hint={amount.side === 'to' ? t('orders.amount.receiveFirst') : undefined}
        />
        {props.hint}
      </div>
      <QuotePreview live={live} asked={query !== undefined} />
      {props.note && (
        <TextField
          label={t('orders.note.label')}
          hint={t('orders.note.hint', { max: NOTE_MAX })}
          maxLength={NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      )}
      <Button type="submit" block disabled={!canReview} {...server.disabledProps}>
        {t('orders.review.open')}
      </Button>
      {server.reason}
    </form>
  )
}

/** A decimal string as the person's language writes it in a field (no grouping: it is edited). */
const inputText = (amount: string, language: Language) =>
  language === 'ru' ? amount.replace('.', ',') : amount

function amountProblem(
  t: ReturnType<typeof useI18n>['t'],
  problem: 'format' | 'zero' | 'decimals',
  side: Side,
  language: Language,
) {
  if (problem === 'zero') return t('orders.amount.zero')
  if (problem === 'decimals') {
    return side.decimals === 0
      ? t('orders.amount.wholeOnly', { currency: side.currency })
      : t('orders.amount.decimals', { currency: side.currency, decimals: side.decimals })
  }
  return t('orders.amount.format', { example: inputText('12.50', language) })
}

/** The live price under the amounts: loading, the lines with their countdown, or why there is none. */
function QuotePreview(props: { live: LiveQuote; asked: boolean }) {
  const { t, language } = useI18n()
  const { live } = props
  const titleId = useId()
  if (!props.asked) return <p className="muted">{t('orders.quote.enterAmount')}</p>
  if (live.paused) return <Alert tone="warning">{t('orders.quote.offline')}</Alert>
  if (live.error && !live.updating) {
    return (
      <div className="stack">
        <p className="alert alert-error" role="alert">
          {quoteProblem(live.error, t, language)}
        </p>
        <Button variant="secondary" onClick={live.refetch}>
          {t('orders.quote.retry')}
        </Button>
      </div>
    )
  }
  if (!live.quote) return <Spinner label={t('orders.quote.loading')} />
  const quote = live.quote
  const received = formatAmount(language, quote.to.amount, quote.to.decimals, quote.to.currency)
  const total = formatAmount(language, quote.total, quote.from.decimals, quote.from.currency)
  return (
    <section
      className={live.current ? 'order-quote' : 'order-quote order-quote-stale'}
      aria-labelledby={titleId}
      aria-busy={!live.current || undefined}
    >
      <h2 id={titleId} className="visually-hidden">
        {t('orders.quote.title')}
      </h2>
      <PriceLines priced={quote} />
      <p className="muted order-countdown" aria-hidden="true">
        {!live.current || live.expired
          ? t('orders.quote.updating')
          : t('orders.quote.fixedFor', { seconds: live.secondsLeft })}
      </p>
      {/* Heard once per price, not at every tick of the countdown. */}
      <p className="visually-hidden" role="status">
        {live.current ? t('orders.quote.announce', { received, total }) : ''}
      </p>
    </section>
  )
}

interface ReviewProps {
  step: Extract<Step, { name: 'review' }>
  kind: OrderKind
  note: string
  headingRef: RefObject<HTMLHeadingElement | null>
  placing: boolean
  error: unknown
  refreshing: boolean
  refreshError: unknown
  onConfirm: () => void
  onRefresh: () => void
  onBack: () => void
  server: ReturnType<typeof useNeedsServer>
}

/**
 * Everything that will happen, and one primary action: confirm — or, once
 * the price has expired or was refused, get a new price first. After a lost
 * answer the only safe move is confirming again with the same request_id,
 * even past the countdown: the server answers the first order if there was
 * one, or QUOTE_EXPIRED if there was none. Until then there is no way back
 * to the form (a new price would mean a new request_id), only to the history.
 */
function Review(props: ReviewProps) {
  const { t, language } = useI18n()
  const { step, server } = props
  const { quote } = step
  const secondsLeft = useSecondsLeft(localExpiry(quote, step.receivedAt))
  const problem = props.error ? orderProblem(props.error, t, language) : undefined
  const ambiguous = problem?.recovery === 'retry'
  // A confirmation on its way, or one whose outcome is unknown, is never
  // replaced by another request_id: that could place a second order.
  const unresolved = props.placing || ambiguous
  const mustRequote = !unresolved && (problem?.recovery === 'requote' || secondsLeft === 0)
  const mustEdit = !props.placing && problem?.recovery === 'edit'

  const extra: [string, ReactNode][] = [[t('orders.review.to'), quote.target.display]]
  if (props.note) extra.push([t('orders.note.label'), props.note])

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
      {step.refreshed && <Notice>{t('orders.review.refreshed')}</Notice>}
      <div className="card stack">
        <PriceLines priced={quote} extra={extra} />
      </div>
      {problem ? (
        <div className="stack">
          <p className="alert alert-error" role="alert">
            {problem.message}
            {ambiguous && ` ${t('orders.review.unknown')}`}
          </p>
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
