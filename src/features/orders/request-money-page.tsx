import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Link, useSearch } from 'wouter'
import type { PaymentRequest } from '../../../contract/payment-requests.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { useMainButton } from '../../telegram/controls.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useAmountField } from './amount-field.tsx'
import { type Basics, MoneyPage } from './money-page.tsx'
import { useCreatePaymentRequest } from './people-mutations.ts'
import { ShareRequest } from './share-request.tsx'
import './orders.css'
import './people.css'

/** The API's bound on a request's note. */
const NOTE_MAX = 140

/**
 * /requests/new?wallet= — ask to be paid: how much, in what, for what; then
 * the link to share (or copy), the Telegram link and the QR code. The money
 * lands in the chosen wallet.
 */
export default function RequestMoneyPage() {
  const { t } = useI18n()
  const wallet = new URLSearchParams(useSearch()).get('wallet')
  return (
    <MoneyPage
      title={t('people.request.title')}
      wallet={wallet ?? undefined}
      back={{ href: paths.requests, label: t('people.requests.title') }}
    >
      {(basics) => <RequestForm basics={basics} />}
    </MoneyPage>
  )
}

function RequestForm(props: { basics: Basics }) {
  const { t } = useI18n()
  const { basics } = props
  const server = useNeedsServer()
  const create = useCreatePaymentRequest()
  const formRef = useRef<HTMLFormElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [currencyUuid, setCurrencyUuid] = useState(
    (basics.currencies.find((c) => c.type === 'fiat') ?? basics.currencies[0])?.uuid,
  )
  const currency = basics.currency(currencyUuid)
  const amount = useAmountField({
    currency: currency && { code: currency.code, decimals: currency.decimals },
    label: t('people.request.amount'),
  })
  const [note, setNote] = useState('')
  const [created, setCreated] = useState<PaymentRequest>()

  useEffect(() => {
    if (created) headingRef.current?.focus()
  }, [created])

  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    if (!currency || !amount.amount || create.isPending) return
    create.mutate(
      {
        amount: amount.amount,
        currency_uuid: currency.uuid,
        wallet_uuid: basics.wallet.uuid,
        ...(note.trim() && { note: note.trim() }),
      },
      { onSuccess: setCreated },
    )
  }

  useMainButton(
    created
      ? undefined
      : {
          text: create.isPending ? t('people.request.creating') : t('people.request.create'),
          enabled: amount.amount !== undefined && !create.isPending && !server.offline,
          busy: create.isPending,
          onClick: () => formRef.current?.requestSubmit(),
        },
  )

  if (created) {
    return (
      <section className="stack" aria-labelledby="request-created-title">
        <h1 id="request-created-title" ref={headingRef} tabIndex={-1}>
          {t('people.request.created')}
        </h1>
        <p className="lead">{t('people.request.createdLead')}</p>
        <ShareRequest request={created} />
        <Link href={paths.requests}>{t('people.requests.all')}</Link>
      </section>
    )
  }

  return (
    <form ref={formRef} className="stack" onSubmit={submit} noValidate>
      <h1>{t('people.request.title')}</h1>
      {basics.walletField}
      <SelectField
        label={t('people.pay.currency')}
        name="currency"
        value={currency?.uuid ?? ''}
        onChange={(event) => setCurrencyUuid(event.target.value)}
      >
        {basics.currencies.map((option) => (
          <option key={option.uuid} value={option.uuid}>
            {basics.currencyOption(option, false)}
          </option>
        ))}
      </SelectField>
      <div className="order-amounts">{amount.field}</div>
      <TextField
        label={t('people.request.note')}
        hint={t('people.request.noteHint', { max: NOTE_MAX })}
        name="note"
        maxLength={NOTE_MAX}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      <ErrorSummary error={create.error} />
      <Button
        type="submit"
        block
        busy={create.isPending}
        disabled={amount.amount === undefined}
        {...server.disabledProps}
      >
        {create.isPending ? t('people.request.creating') : t('people.request.create')}
      </Button>
      {server.reason}
    </form>
  )
}
