import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Button } from '../../ui/components.tsx'
import { TextField } from '../../ui/fields.tsx'
import { amountProblem, inputText } from './amount-input.ts'
import { sideLabels } from './labels.ts'
import { quoteProblem } from './order-error.ts'
import { announcement, QuotePreview } from './quote-preview.tsx'
import type { AmountSide, OrderFlowProps, OrderFlowState } from './use-order-flow.ts'

/** A note travels with the order (the payment reference of a bank payout): the API's limit. */
const NOTE_MAX = 140

/**
 * The flow's first step: the action's own fields, the two amounts (either may be typed, the
 * other follows the live quote), the price, a note where the action takes one, and "Review".
 */
export function OrderFormStep({ props, flow }: { props: OrderFlowProps; flow: OrderFlowState }) {
  const { t, language } = useI18n()
  const { amount, live, reading, typedSide, overspent, server } = flow
  const labels = sideLabels(t, props.kind)
  const type = flow.typeAmount
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
  const fields =
    typeof props.fields === 'function'
      ? props.fields({
          address: issue?.field === 'address' ? issue.message : undefined,
          destination: issue?.field === 'destination' ? issue.message : undefined,
        })
      : props.fields

  return (
    <form ref={flow.formRef} className="stack" onSubmit={flow.openReview} noValidate>
      <h1 ref={flow.headingRef} tabIndex={-1}>
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
      <QuotePreview live={live} issue={issue} asked={flow.query !== undefined} />
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
          value={flow.note}
          onChange={(event) => flow.setNote(event.target.value)}
        />
      )}
      <Button type="submit" block disabled={!flow.canReview} {...server.disabledProps}>
        {t('orders.review.open')}
      </Button>
      {server.reason}
    </form>
  )
}
