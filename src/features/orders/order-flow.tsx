import { OrderFormStep } from './order-form-step.tsx'
import { OrderResult } from './order-result.tsx'
import { OrderReviewStep } from './order-review-step.tsx'
import { type OrderFlowProps, useOrderFlow } from './use-order-flow.ts'

/**
 * Every money action in three steps, one primary button each (the Telegram
 * MainButton can stand in for it): the form with a live quote, the review of
 * everything that will happen, and the result with the order's status. The
 * step is in the URL (flow-url.ts): back from the review is the form, a
 * reload of the result is the result.
 */
export function OrderFlow(props: OrderFlowProps) {
  const flow = useOrderFlow(props)
  const { review, server } = flow

  if (flow.step === 'result') return <OrderResult orderId={flow.placedId!} done={props.done} />

  if (flow.step === 'review' && review) {
    return (
      <OrderReviewStep
        review={review}
        kind={props.kind}
        note={flow.note.trim()}
        details={props.details}
        headingRef={flow.headingRef}
        placing={flow.placing}
        problem={flow.problem}
        refreshing={flow.refreshing}
        refreshError={flow.refreshError}
        onConfirm={() => flow.confirm(review)}
        onRefresh={() => void flow.refresh(review, 'price')}
        onBack={flow.backToForm}
        server={server}
      />
    )
  }

  return <OrderFormStep props={props} flow={flow} />
}
