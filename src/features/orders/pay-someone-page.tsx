import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { CLAIM_DAYS } from '../../../contract/display-rules.ts'
import type { CreateTransferBody } from '../../../contract/transfers.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { paths } from '../../paths.ts'
import { useClosingConfirmation, useHaptics, useMainButton } from '../../telegram/controls.tsx'
import { Button } from '../../ui/components.tsx'
import { useConfirmOnce } from '../../ui/confirm-once.ts'
import { parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { BackLink } from '../../ui/page-header.tsx'
import { useAmountField } from './amount-field.tsx'
import { ContactPicker, type PickedPerson } from './contact-picker.tsx'
import { onPushedReview, REVIEW_STATE, replaceReviewWith, withParams } from './flow-url.ts'
import { type Basics, MoneyPage, useHeldFirst } from './money-page.tsx'
import { useSendTransfer } from './people-mutations.ts'
import { RepeatThis } from './repeat-this.tsx'
import { TransferResult } from './transfer-result.tsx'
import './orders.css'
import './people.css'

/** The API's bound on a transfer's note. */
const NOTE_MAX = 140
/** The idempotency scope of a payment to a person (ui/confirm-once.ts). */
const TRANSFER_SCOPE = 'transfer'

/**
 * /pay-someone?wallet= — money to another person of the platform, free and
 * at once: who (the recent people first, or a contact), from which wallet and
 * currency, how much, a note; then a review, the second look when the server
 * asks for it (net/step-up.ts), and the result (`?transfer=<id>`, so a reload
 * shows it again).
 */
export default function PaySomeonePage() {
  const { t } = useI18n()
  const search = useSearch()
  const params = new URLSearchParams(search)
  const sent = params.get('transfer')
  if (sent) {
    return (
      <div className="stack">
        <BackLink back={{ href: paths.move, label: t('nav.move') }} />
        <TransferResult
          id={sent}
          more={(transfer) =>
            transfer.status === 'COMPLETE' &&
            transfer.direction === 'out' &&
            transfer.counterparty.user_id && (
              <RepeatThis
                repeat={{
                  kind: 'transfer',
                  template: {
                    to: { user_id: transfer.counterparty.user_id },
                    wallet_uuid: transfer.wallet_uuid,
                    currency_uuid: transfer.amount.currency_uuid,
                    amount: transfer.amount.amount,
                    ...(transfer.note && { note: transfer.note }),
                  },
                }}
              />
            )
          }
        />
      </div>
    )
  }
  return (
    <MoneyPage title={t('people.pay.title')} wallet={params.get('wallet') ?? undefined}>
      {(basics) => <PayForm basics={basics} />}
    </MoneyPage>
  )
}

function PayForm(props: { basics: Basics }) {
  const { t, language } = useI18n()
  const { basics } = props
  const [path, navigate] = useLocation()
  const search = useSearch()
  const server = useNeedsServer()
  const haptic = useHaptics()
  const send = useSendTransfer()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const reviewHeadingRef = useRef<HTMLHeadingElement>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const [person, setPerson] = useState<PickedPerson>()
  // Unless the person picks: the first currency the wallet holds any of.
  const held = basics.currencies.find((c) => parseDecimal(basics.available(c.uuid)).units > 0n)
  const [currencyUuid, setCurrencyUuid] = useState(held?.uuid ?? basics.currencies[0]?.uuid)
  const pickable = useHeldFirst(basics, basics.currencies, currencyUuid)
  const currency = basics.currency(currencyUuid)
  const amount = useAmountField({
    currency: currency && { code: currency.code, decimals: currency.decimals },
    available: currency ? basics.available(currency.uuid) : undefined,
    label: t('people.pay.amount'),
  })
  const [note, setNote] = useState('')
  const body: Omit<CreateTransferBody, 'request_id'> | undefined =
    person && currency && amount.amount
      ? {
          to: person.to,
          wallet_uuid: basics.wallet.uuid,
          currency_uuid: currency.uuid,
          amount: amount.amount,
          ...(note.trim() && { note: note.trim() }),
        }
      : undefined
  // The review is in the URL (flow-url.ts): back, Telegram's BackButton included, is the form.
  const urlReview = new URLSearchParams(search).get('step') === 'review'
  const reviewing = urlReview && body !== undefined
  const formUrl = withParams(path, search, { step: undefined })
  // A reload onto the review finds no payment in memory: the form, not a review of nothing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL and the payment, nothing else
  useEffect(() => {
    if (urlReview && body === undefined) navigate(formUrl, { replace: true })
  }, [urlReview, body === undefined])
  // One key per payment as chosen: a retry or a reload after a lost answer sends the same one.
  const once = useConfirmOnce<typeof body>(
    TRANSFER_SCOPE,
    reviewing && body ? JSON.stringify(body) : undefined,
  )
  const unresolved = send.isPending
  useClosingConfirmation(unresolved)

  const firstRender = useRef(true)
  useEffect(() => {
    if (firstRender.current) firstRender.current = false
    else (reviewing ? reviewHeadingRef : headingRef).current?.focus()
  }, [reviewing])

  const review = (event?: FormEvent) => {
    event?.preventDefault()
    if (!body) return
    send.reset()
    navigate(withParams(path, search, { step: 'review' }), { state: REVIEW_STATE })
  }
  const confirm = () => {
    if (!body || !once.start(body)) return
    send.mutate(
      { ...body, request_id: once.requestId },
      {
        onSuccess: (transfer) => {
          haptic('success')
          replaceReviewWith(
            navigate,
            withParams(path, search, { step: undefined, transfer: transfer.id }),
          )
        },
        onError: () => haptic('error'),
        onSettled: (_transfer, error) => once.finish(error),
      },
    )
  }

  useMainButton(
    reviewing
      ? {
          text: send.isPending ? t('people.pay.sending') : t('people.pay.confirm'),
          enabled: !send.isPending && !server.offline,
          busy: send.isPending,
          onClick: confirm,
        }
      : {
          text: t('people.pay.review'),
          enabled: body !== undefined && !server.offline,
          busy: false,
          onClick: () => formRef.current?.requestSubmit(),
        },
  )

  let reviewStep: ReactNode = null
  if (reviewing && body && person && currency) {
    const shown = formatMoney(language, { amount: body.amount, currency: currency.code })
    reviewStep = (
      <section className="stack" aria-labelledby="pay-review-title">
        <h1 id="pay-review-title" ref={reviewHeadingRef} tabIndex={-1}>
          {t('people.pay.reviewTitle')}
        </h1>
        <div className="card stack">
          <p className="pay-review-person">
            <span className="person-avatar" aria-hidden="true">
              {person.initial ?? '@'}
            </span>
            <span>{t('people.pay.reviewLine', { amount: shown, name: person.name })}</span>
          </p>
          <dl className="pay-review-lines">
            <dt>{t('people.pay.fee')}</dt>
            <dd>{t('people.pay.free')}</dd>
            {body.note && (
              <>
                <dt>{t('people.pay.note')}</dt>
                <dd>{body.note}</dd>
              </>
            )}
          </dl>
        </div>
        {!person.found && (
          <p className="alert alert-warning">
            {t('people.pay.waitsReview', { contact: person.name, days: CLAIM_DAYS })}
          </p>
        )}
        <ErrorSummary error={send.error} />
        <Button block busy={send.isPending} onClick={confirm} {...server.disabledProps}>
          {send.isPending ? t('people.pay.sending') : t('people.pay.confirm')}
        </Button>
        {server.reason}
        <Button
          variant="secondary"
          block
          disabled={send.isPending}
          onClick={() => (onPushedReview() ? history.back() : navigate(formUrl, { replace: true }))}
        >
          {t('people.pay.change')}
        </Button>
      </section>
    )
  }

  // The form stays mounted under the review (hidden): back finds it as it was, the person picked.
  return (
    <>
      {reviewStep}
      <form
        ref={formRef}
        // .stack's display would show a hidden form: hidden, it takes no class.
        className={reviewStep === null ? 'stack' : undefined}
        onSubmit={review}
        noValidate
        hidden={reviewStep !== null}
      >
        <h1 ref={headingRef} tabIndex={-1}>
          {t('people.pay.title')}
        </h1>
        <ContactPicker onChange={setPerson} />
        {basics.walletField}
        <SelectField
          label={t('people.pay.currency')}
          name="currency"
          value={currency?.uuid ?? ''}
          onChange={(event) => setCurrencyUuid(event.target.value)}
        >
          {pickable.options.map((option) => (
            <option key={option.uuid} value={option.uuid}>
              {basics.currencyOption(option)}
            </option>
          ))}
        </SelectField>
        {pickable.toggle}
        <div className="order-amounts">{amount.field}</div>
        <TextField
          label={t('people.pay.note')}
          hint={t('people.pay.noteHint', { max: NOTE_MAX })}
          name="note"
          maxLength={NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <Button type="submit" block disabled={!body} {...server.disabledProps}>
          {t('people.pay.review')}
        </Button>
        {server.reason}
      </form>
    </>
  )
}
