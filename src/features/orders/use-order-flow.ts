import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import type { Quote, QuoteQuery } from '../../../contract/orders.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { useClosingConfirmation, useHaptics, useMainButton } from '../../telegram/controls.tsx'
import { useConfirmOnce } from '../../ui/confirm-once.ts'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { useNeedsServer } from '../../ui/online.tsx'
import { readAmount } from './amount-input.ts'
import { onPushedReview, REVIEW_STATE, replaceReviewWith, withParams } from './flow-url.ts'
import type { OrderKind } from './labels.ts'
import { usePlaceOrder } from './mutations.ts'
import { orderProblem } from './order-error.ts'
import type { Row } from './order-target.tsx'
import { PLACEMENT_SCOPE, type PlacementBody } from './pending-placement.ts'
import { quoteQuery } from './queries.ts'
import { useLiveQuote } from './use-live-quote.ts'

/** Everything a quote needs but the amount: what each action's own fields decide. */
export type QuoteRequest = Omit<QuoteQuery, 'amount_from' | 'amount_to'>

/** A side of the order as the form knows it before any quote: its currency and decimals. */
export interface Side {
  currency: string
  decimals: number
}

export type AmountSide = 'from' | 'to'

/** The review step: the quote being confirmed, kept in memory (the URL says only `?step=review`). */
export interface Review {
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

/** What the steps of the flow read and do: the state machine behind order-flow.tsx. */
export type OrderFlowState = ReturnType<typeof useOrderFlow>

/**
 * The flow's state machine: which step shows (the URL's `?step=review`, the review in memory,
 * the placed order), the amount typed on either side, its live quote, and the moves between
 * steps — open the review, confirm, get a new price, go back.
 */
export function useOrderFlow(props: OrderFlowProps) {
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

  const refresh = async (review: Review, why: 'price' | 'destination') => {
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

  const confirm = (review: Review) => {
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
            void refresh(review, 'destination')
          }
        },
        onSettled: (_order, error) => once.finish(error),
      },
    )
  }

  /** The person types on one side; the other side follows the quote. */
  const typeAmount = (side: AmountSide) => (text: string) => {
    if (side !== amount.side) haptic('selection')
    setAmount({ side, text })
  }

  return {
    step,
    server,
    headingRef,
    formRef,
    placedId,
    review,
    amount,
    typeAmount,
    typedSide,
    reading,
    query,
    live,
    overspent,
    canReview,
    note,
    setNote,
    openReview,
    backToForm,
    placing: place.isPending,
    problem,
    refreshing,
    refreshError,
    refresh,
    confirm,
  }
}
