import { type FormEvent, useId, useRef, useState } from 'react'
import type { CardDetail } from '../../../contract/cards.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { Alert, Button, Notice } from '../../ui/components.tsx'
import { TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { CardError } from './card-secrets-panel.tsx'
import { cardDelivery, DELIVERY_STATUSES, type DeliveryStatus } from './delivery.ts'
import { useActivateCard } from './mutations.ts'

/** A physical card's way to its owner, and its activation once it has arrived. */
export function CardDelivery(props: { card: CardDetail }) {
  const { t } = useI18n()
  const titleId = useId()
  const status = cardDelivery(props.card)
  const [activated, setActivated] = useState(false)
  if (props.card.form_factor !== 'PHYSICAL' || !status) return null
  const canActivate = props.card.status === 'INACTIVE' && status === 'DELIVERED'
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cards.delivery.title')}</h2>
      <DeliverySteps status={status} />
      {canActivate && <ActivateCard card={props.card} onActivated={() => setActivated(true)} />}
      {/* Outside the form, which goes once the card is ACTIVE: the news must stay. */}
      {activated && <Notice>{t('cards.activate.done')}</Notice>}
    </section>
  )
}

/** Ordered → shipped → delivered; the current step is named as such to screen readers. */
function DeliverySteps(props: { status: DeliveryStatus }) {
  const { t } = useI18n()
  const reached = DELIVERY_STATUSES.indexOf(props.status)
  return (
    <>
      <ol className="delivery-steps">
        {DELIVERY_STATUSES.map((step, index) => (
          <li
            key={step}
            className={index <= reached ? 'delivery-step delivery-step-done' : 'delivery-step'}
            aria-current={index === reached ? 'step' : undefined}
          >
            {t(`cards.delivery.${step}`)}
          </li>
        ))}
      </ol>
      <p role="status" className="muted">
        {t('cards.delivery.now', { status: t(`cards.delivery.${props.status}`) })}
      </p>
    </>
  )
}

const CVV = /^\d{3}$/

/**
 * Activation with the 3-digit security code printed on the back: only the
 * plastic carries it. The code lives in the field until it is sent, then
 * nowhere: the field is emptied, and the mutation is reset once it settles
 * (its variables would hold the code), its error kept here instead.
 */
function ActivateCard(props: { card: CardDetail; onActivated: () => void }) {
  const { t } = useI18n()
  const server = useNeedsServer()
  const activate = useActivateCard(props.card)
  const [cvv, setCvv] = useState('')
  const [invalid, setInvalid] = useState(false)
  const [failure, setFailure] = useState<unknown>()
  const field = useRef<HTMLInputElement>(null)
  const code = failure instanceof ApiError ? failure.code : undefined
  const wrong = code === 'ACTIVATION_CODE_INVALID'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!CVV.test(cvv)) {
      setInvalid(true)
      field.current?.focus()
      return
    }
    setInvalid(false)
    setFailure(undefined)
    setCvv('')
    activate.mutate(
      { cvv },
      {
        onSuccess: () => {
          activate.reset()
          props.onActivated()
        },
        onError: (error) => {
          activate.reset()
          setFailure(error)
          field.current?.focus()
        },
      },
    )
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <p>{t('cards.activate.lead')}</p>
      <TextField
        ref={field}
        label={t('cards.activate.label')}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        maxLength={3}
        value={cvv}
        onChange={(event) => {
          setCvv(event.target.value.replace(/\D/g, ''))
          setInvalid(false)
          setFailure(undefined)
        }}
        error={invalid ? t('cards.activate.format') : wrong ? t('cards.activate.wrong') : undefined}
      />
      <div>
        <Button type="submit" busy={activate.isPending} {...server.disabledProps}>
          {t('cards.activate.submit')}
        </Button>
        {server.reason}
      </div>
      {code === 'CARD_NOT_DELIVERED' ? (
        <Alert>{t('cards.activate.notDelivered')}</Alert>
      ) : (
        failure !== undefined && !wrong && <CardError error={failure} />
      )}
    </form>
  )
}
