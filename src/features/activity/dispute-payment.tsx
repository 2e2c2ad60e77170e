import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useRef, useState } from 'react'
import type { ActivityDetail } from '../../../contract/activity.ts'
import { DISPUTE_REASONS, type DisputeReason } from '../../../contract/card-choices.ts'
import type { CardDispute } from '../../../contract/card-disputes.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { api } from '../../net/api.ts'
import { activityKeys } from '../../queries/activity.ts'
import { Alert, Button, Notice } from '../../ui/components.tsx'
import { useNeedsServer } from '../../ui/online.tsx'

/** What a dispute's details may hold (contract/card-disputes.ts). */
const MAX_DETAILS = 2000

/** A card payment that can still be disputed: charged, not all of it back, never disputed. */
const disputable = (item: ActivityDetail) =>
  item.type === 'card_purchase' &&
  item.source.type === 'card_transaction' &&
  item.status === 'complete' &&
  item.dispute === null

type Step = 'closed' | 'reason' | 'details'

/**
 * "Something wrong?" under a card payment (issue 30): what happened (the
 * reason), then in the person's words, then sent. A fraud claim says the
 * money comes back at once. The payment's item is read again: its status
 * and steps show the dispute from then on; the answer stays said here.
 */
export function DisputePayment(props: { item: ActivityDetail }) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const queryClient = useQueryClient()
  const titleId = useId()
  const detailsId = useId()
  const [step, setStep] = useState<Step>('closed')
  const [reason, setReason] = useState<DisputeReason>()
  const [details, setDetails] = useState('')
  const [missing, setMissing] = useState<'reason' | 'details'>()
  const detailsRef = useRef<HTMLTextAreaElement>(null)
  const send = useMutation({
    mutationFn: (body: { reason: DisputeReason; details: string }) =>
      api.v1.post<CardDispute>(
        `/issuing/transactions/${encodeURIComponent(props.item.source.id)}/dispute`,
        body,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  })

  if (!send.isSuccess && !disputable(props.item)) return null
  if (send.isSuccess) {
    const credit = send.data.credit
    return (
      <div data-testid="dispute-sent">
        <Notice>
          {credit
            ? t('activity.dispute.sentCredited', {
                amount: formatMoney(language, {
                  amount: credit.amount,
                  currency: send.data.currency,
                  chain: null,
                }),
              })
            : t('activity.dispute.sent')}
        </Notice>
      </div>
    )
  }

  const next = (event: FormEvent) => {
    event.preventDefault()
    if (step === 'reason') {
      if (!reason) return setMissing('reason')
      setMissing(undefined)
      return setStep('details')
    }
    const told = details.trim()
    if (!reason) return setStep('reason')
    if (told === '') {
      setMissing('details')
      detailsRef.current?.focus()
      return
    }
    setMissing(undefined)
    send.mutate({ reason, details: told })
  }

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('activity.dispute.title')}</h2>
      {step === 'closed' ? (
        <>
          <p className="muted">{t('activity.dispute.lead')}</p>
          <div>
            <Button
              variant="secondary"
              onClick={() => setStep('reason')}
              data-testid="dispute-start"
            >
              {t('activity.dispute.start')}
            </Button>
          </div>
        </>
      ) : (
        <form className="stack" onSubmit={next} noValidate data-testid="dispute-form">
          {step === 'reason' ? (
            <fieldset className="stack dispute-reasons">
              <legend>{t('activity.dispute.reason')}</legend>
              {DISPUTE_REASONS.map((each) => (
                <label key={each} className="choice">
                  <input
                    type="radio"
                    name={`${titleId}-reason`}
                    value={each}
                    checked={reason === each}
                    onChange={() => setReason(each)}
                  />
                  <span className="choice-text">
                    <span className="choice-title">{t(`activity.dispute.reason.${each}`)}</span>
                  </span>
                </label>
              ))}
              {missing === 'reason' && <Alert>{t('activity.dispute.reasonMissing')}</Alert>}
            </fieldset>
          ) : (
            <>
              {reason === 'fraud' && <p>{t('activity.dispute.fraudNote')}</p>}
              <div className="field">
                <label htmlFor={detailsId}>{t('activity.dispute.details')}</label>
                <textarea
                  ref={detailsRef}
                  id={detailsId}
                  rows={4}
                  maxLength={MAX_DETAILS}
                  value={details}
                  aria-invalid={missing === 'details' ? true : undefined}
                  aria-describedby={`${detailsId}-hint${missing === 'details' ? ` ${detailsId}-error` : ''}`}
                  onChange={(event) => setDetails(event.target.value)}
                />
                <p id={`${detailsId}-hint`} className="field-hint">
                  {t('activity.dispute.detailsHint')}
                </p>
                {missing === 'details' && (
                  <p id={`${detailsId}-error`} className="field-error">
                    {t('activity.dispute.detailsMissing')}
                  </p>
                )}
              </div>
            </>
          )}
          <div className="row">
            <Button
              variant="quiet"
              onClick={() => {
                send.reset()
                setMissing(undefined)
                setStep(step === 'details' ? 'reason' : 'closed')
              }}
            >
              {step === 'details' ? t('activity.dispute.back') : t('activity.dispute.cancel')}
            </Button>
            <Button
              type="submit"
              busy={send.isPending}
              {...(step === 'details' ? server.disabledProps : {})}
            >
              {step === 'details' ? t('activity.dispute.send') : t('activity.dispute.next')}
            </Button>
          </div>
          {step === 'details' && server.reason}
          {send.isError && <Alert>{errorMessage(send.error, t)}</Alert>}
        </form>
      )}
    </section>
  )
}
