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
import { Link, useLocation, useSearch } from 'wouter'
import type { Quote, QuoteQuery } from '../../../contract/orders.ts'
import { type Language, type Translate, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ApiError } from '../../net/api.ts'
import { href } from '../../paths.ts'
import { useClosingConfirmation, useHaptics, useMainButton } from '../../telegram/controls.tsx'
import { Alert, Button, Notice, Skeleton } from '../../ui/components.tsx'
import { useConfirmOnce } from '../../ui/confirm-once.ts'
import { useSecondsLeft } from '../../ui/countdown.ts'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TextField } from '../../ui/fields.tsx'
import { KycPrompt } from '../../ui/kyc-prompt.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { amountProblem, inputText, readAmount } from './amount-input.ts'
import { onPushedReview, REVIEW_STATE, replaceReviewWith, withParams } from './flow-url.ts'
import { type OrderKind, sideLabels } from './labels.ts'
import { usePlaceOrder } from './mutations.ts'
import { type OrderProblem, orderProblem, type QuoteProblem, quoteProblem } from './order-error.ts'
import { OrderResult } from './order-result.tsx'
import { type Row, useTargetRows } from './order-target.tsx'
import { PLACEMENT_SCOPE, type PlacementBody } from './pending-placement.ts'
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

/** The review step: the quote being confirmed, kept in memory (the URL says only `?step=review`). */
interface Review {
  query: QuoteQuery
  quote: Quote
  receivedAt: number
  /** Why the price on screen is a new one, if it is. */
  refreshed?: 'price' | 'destination'
}

/** Problems of a refused quote that belong on the action's own fields. */
export interface FieldProblems {
  address?: string
  destination?: string
}

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
  /** The most `available` pays for with the fees on top: offered as "Max" beside it. */
  max?: string | undefined
  /** The action's own fields: wallet, currencies, destination — with a refused quote's problems on them. */
  fields: ReactNode | ((problems: FieldProblems) => ReactNode)
  /** Said under the amounts: limits, an indicative rate. */
  hint?: ReactNode
  /** Whether the person may add a note (sends: it becomes the payment reference). */
  note?: boolean
  /** More lines for the review, from what the form knows (a saved destination's IBAN). */
  details?: (quote: Quote) => Row[]
  /**
   * Reads again what the form knows about the target: on review (the review
   * must show what was priced) and when placing says the destination changed or went.
   */
  refreshTarget?: () => void
  /** Where the result's "Done" leads, when not the wallet (a card the top-up was opened from). */
  done?: string | undefined
}

/**
 * Every money action in three steps, one primary button each (the Telegram
 * MainButton can stand in for it): the form with a live quote, the review of
 * everything that will happen, and the result with the order's status. The
 * step is in the URL (flow-url.ts): back from the review is the form, a
 * reload of the result is the result.
 */
export function OrderFlow(props: OrderFlowProps) {
  const { t, language } = useI18n()
  const queryClient = useQueryClient()
  const server = useNeedsServer()
  const place = usePlaceOrder()
  const [path, navigate] = useLocation()
  const search = useSearch()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const haptic = useHaptics()
  const [review, setReview] = useState<Review>()
  const [placedId, setPlacedId] = useState<string>()
  const [amount, setAmount] = useState<{ side: AmountSide; text: string }>({
    side: 'from',
    text: '',
  })
  const [note, setNote] = useState('')
  const [refreshing, setRefreshing] = useState(false)
  const [refreshError, setRefreshError] = useState<unknown>(null)
  // The idempotency key of the confirmation, one per quote, and its in-flight
  // latch: a double tap, a retry after a lost answer and a reload send the same
  // key, so the server places one order at most; a new price gets a new key.
  const once = useConfirmOnce<PlacementBody>(PLACEMENT_SCOPE, review?.quote.quote_id)

  const problem = place.error ? orderProblem(place.error, t, language) : undefined
  // A confirmation on its way, or one whose outcome is unknown, is never
  // replaced by another request_id: that could place a second order.
  const unresolved = place.isPending || problem?.recovery === 'retry'
  const urlReview = new URLSearchParams(search).get('step') === 'review'
  const step = placedId ? 'result' : review && (urlReview || unresolved) ? 'review' : 'form'
  const formUrl = withParams(path, search, { step: undefined })
  const reviewUrl = withParams(path, search, { step: 'review' })

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL and the review, nothing else
  useEffect(() => {
    if (placedId) return
    // Back (browser, phone) while a confirmation is unresolved: the review stays.
    if (review && unresolved && !urlReview) navigate(reviewUrl, { state: REVIEW_STATE })
    // Back from the review: the form, as it was.
    else if (review && !unresolved && !urlReview) {
      place.reset()
      setRefreshError(null)
      setReview(undefined)
    }
    // A reload (or forward) onto a review whose quote is gone: the form.
    else if (!review && urlReview) navigate(formUrl, { replace: true })
  }, [urlReview, review, unresolved, placedId])

  // Leaving while a confirmation is unresolved asks first (a reload would resume it; closing would not).
  useEffect(() => {
    if (!unresolved) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    addEventListener('beforeunload', warn)
    return () => removeEventListener('beforeunload', warn)
  }, [unresolved])
  // In Telegram, closing the Mini App asks too.
  useClosingConfirmation(unresolved)

  const typedSide = amount.side === 'from' ? props.from : props.to
  const reading = typedSide ? readAmount(amount.text, typedSide.decimals, language) : undefined
  const query: QuoteQuery | undefined =
    props.request && reading?.ok
      ? {
          ...props.request,
          [amount.side === 'from' ? 'amount_from' : 'amount_to']: reading.amount,
        }
      : undefined
  const live = useLiveQuote(query, step === 'form')

  const firstRender = useRef(true)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    // The new step's heading takes the focus, so keyboard and screen-reader users start there.
    if (firstRender.current) firstRender.current = false
    else headingRef.current?.focus()
  }, [step])

  const labels = sideLabels(t, props.kind)
  const more = (amount: string) =>
    props.available !== undefined &&
    compare(parseDecimal(amount), parseDecimal(props.available)) > 0
  // More than the wallet holds: typed so (whatever bound the price also crosses, this is the one
  // to fix), or once the price adds the fees.
  const overspent =
    (amount.side === 'from' && reading?.ok === true && more(reading.amount)) ||
    (live.current && more(live.quote!.total))

  const canReview = live.current && !live.expired && !overspent && query !== undefined

  // In Telegram the MainButton carries the form's primary action too.
  useMainButton(
    step === 'form'
      ? {
          text: t('orders.review.open'),
          enabled: canReview && !server.offline,
          busy: false,
          onClick: () => formRef.current?.requestSubmit(),
        }
      : undefined,
  )

  const openReview = (event: FormEvent) => {
    event.preventDefault()
    if (!canReview || !live.quote) return
    place.reset()
    setRefreshError(null)
    setReview({
      query: query!,
      quote: live.quote,
      receivedAt: live.receivedAt,
    })
    navigate(reviewUrl, { state: REVIEW_STATE })
    props.refreshTarget?.()
  }

  /** The form again: a step back when the review entry is ours, else the review's URL replaced. */
  const backToForm = () => {
    if (onPushedReview()) history.back()
    else navigate(formUrl, { replace: true })
  }

  /** The result replaces the flow in history: back from it leaves the flow, never onto a spent review. */
  const showResult = (orderId: string) => {
    haptic('success')
    setPlacedId(orderId)
    replaceReviewWith(navigate, withParams(path, search, { step: undefined, order: orderId }))
  }

  if (step === 'result') return <OrderResult orderId={placedId!} done={props.done} />

  if (step === 'review' && review) {
    const refresh = async (why: 'price' | 'destination') => {
      setRefreshing(true)
      setRefreshError(null)
      try {
        const quote = await queryClient.fetchQuery({
          ...quoteQuery(review.query),
          staleTime: 0,
          // The person is waiting on the button: a failure shows at once, they can press again.
          retry: false,
        })
        place.reset()
        setReview({
          ...review,
          quote,
          receivedAt: Date.now(),
          refreshed: why,
        })
      } catch (error) {
        setRefreshError(error)
      } finally {
        setRefreshing(false)
      }
    }
    const confirm = () => {
      const trimmed = note.trim()
      const body = { quote_id: review.quote.quote_id, ...(trimmed && { note: trimmed }) }
      const orderType = review.quote.order_type
      if (!once.start({ order_type: orderType, ...body })) return
      place.mutate(
        { orderType, body: { ...body, request_id: once.requestId } },
        {
          onSuccess: (order) => showResult(order.id),
          onError: (error) => {
            haptic('error')
            if (!(error instanceof ApiError)) return
            if (error.code === 'DESTINATION_NOT_FOUND') props.refreshTarget?.()
            // Edited since the quote: the new details, at a new price, for the person to check.
            if (error.code === 'DESTINATION_CHANGED') {
              props.refreshTarget?.()
              void refresh('destination')
            }
          },
          onSettled: (_order, error) => once.finish(error),
        },
      )
    }
    return (
      <ReviewStep
        review={review}
        kind={props.kind}
        note={note.trim()}
        details={props.details}
        headingRef={headingRef}
        placing={place.isPending}
        problem={problem}
        refreshing={refreshing}
        refreshError={refreshError}
        onConfirm={confirm}
        onRefresh={() => void refresh('price')}
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
      ? amountProblem(t, reading, typedSide, language)
      : undefined
  const issue = live.error && !live.updating ? quoteProblem(live.error, t, language) : undefined
  const errorOf = (side: AmountSide) => {
    if (amount.side === side && readingError) return readingError
    if (side === 'from' && overspent) return t('orders.amount.overspent')
    if (amount.side === side && issue?.field === 'amount') return issue.message
    return undefined
  }
  const fieldLabel = (side: AmountSide) => {
    const currency = side === 'from' ? props.from?.currency : props.to?.currency
    const label = side === 'from' ? labels.pay : labels.receive
    return currency ? t('orders.amount.label', { label, currency }) : label
  }
  const type = (side: AmountSide) => (text: string) => {
    if (side !== amount.side) haptic('selection')
    setAmount({ side, text })
  }
  const fields =
    typeof props.fields === 'function'
      ? props.fields({
          address: issue?.field === 'address' ? issue.message : undefined,
          destination: issue?.field === 'destination' ? issue.message : undefined,
        })
      : props.fields

  return (
    <form ref={formRef} className="stack" onSubmit={openReview} noValidate>
      <h1 ref={headingRef} tabIndex={-1}>
        {props.title}
      </h1>
      {props.lead && <p className="lead">{props.lead}</p>}
      {fields}
      <div className="order-amounts stack">
        <TextField
          label={fieldLabel('from')}
          adornment={props.from?.currency}
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
                  amount: formatMoney(language, {
                    amount: props.available,
                    currency: props.from.currency,
                  }),
                })
              : undefined
          }
          hintAction={
            props.max &&
            props.from && (
              <Button
                variant="quiet"
                className="order-max"
                aria-label={t('orders.amount.maxName', {
                  amount: formatMoney(language, {
                    amount: props.max,
                    currency: props.from.currency,
                  }),
                })}
                onClick={() => type('from')(inputText(props.max!, language))}
              >
                {t('orders.amount.max')}
              </Button>
            )
          }
        />
        <TextField
          label={fieldLabel('to')}
          adornment={props.to?.currency}
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
      <QuotePreview live={live} issue={issue} asked={query !== undefined} />
      {/* One live region for the price, always in place: spoken when the person asked for
          something new or the price moved, not at every refresh (use-live-quote.ts). */}
      <p className="visually-hidden" role="status">
        {live.announce ? announcement(t, language, live.announce) : ''}
      </p>
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

const announcement = (t: Translate, language: Language, quote: Quote) =>
  t('orders.quote.announce', {
    received: formatMoney(language, { amount: quote.to.amount, currency: quote.to.currency }),
    total: formatMoney(language, { amount: quote.total, currency: quote.from.currency }),
  })

/** The live price under the amounts: loading, the lines with their countdown, or why there is none. */
function QuotePreview(props: { live: LiveQuote; issue: QuoteProblem | undefined; asked: boolean }) {
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
function ReviewStep(props: ReviewProps) {
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
