import { useEffect, useId, useState } from 'react'
import type { CardDetail, CardStatus } from '../../../contract/cards.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { Alert, Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { cardStatusLabel, groupedPan } from './labels.ts'
import { CLIPBOARD_CLEAR_MS, copySecret } from './secret-clipboard.ts'
import { REVEAL_MS, useCardOtp, useCardReveal } from './use-card-reveal.ts'

/** What the server answers when the card's status forbids the action, in words. */
export function CardError(props: { error: unknown }) {
  const { t } = useI18n()
  const { error } = props
  if (error instanceof ApiError && error.code === 'CARD_STATUS_CONFLICT') {
    const status = error.problem?.card_status as CardStatus | undefined
    return (
      <Alert>
        {status
          ? t('cards.conflict', { status: cardStatusLabel(t, status) })
          : t('cards.conflictUnknown')}
      </Alert>
    )
  }
  if (error !== undefined && !(error instanceof ApiError) && !(error instanceof TypeError)) {
    return <Alert>{t('cards.reveal.failed')}</Alert>
  }
  return <ErrorSummary error={error} />
}

/** The number, expiry and CVV: fetched on request through the worker, shown for 30 s. */
export function CardSecretsPanel(props: { card: CardDetail }) {
  const { t } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const { secrets, reveal, hide, busy, error } = useCardReveal(props.card.id)
  const seconds = REVEAL_MS / 1000

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cards.reveal.title')}</h2>
      <p className="muted">{t('cards.reveal.hint', { seconds })}</p>
      {secrets ? (
        <>
          <dl className="fields card-secrets">
            <SecretRow
              label={t('cards.reveal.number')}
              value={secrets.pan}
              shown={groupedPan(secrets.pan)}
            />
            <SecretRow label={t('cards.reveal.expiry')} value={secrets.expiry} />
            <SecretRow label={t('cards.reveal.cvv')} value={secrets.cvv} />
          </dl>
          <div>
            <Button variant="secondary" onClick={hide}>
              {t('cards.reveal.hide')}
            </Button>
          </div>
        </>
      ) : (
        <div>
          <Button onClick={reveal} busy={busy} {...server.disabledProps}>
            {t('cards.reveal.show')}
          </Button>
          {server.reason}
        </div>
      )}
      {error !== undefined && <CardError error={error} />}
    </section>
  )
}

function SecretRow(props: { label: string; value: string; shown?: string }) {
  const { t } = useI18n()
  const [outcome, setOutcome] = useState<'copied' | 'failed'>()

  useEffect(() => {
    if (!outcome) return
    const timer = setTimeout(() => setOutcome(undefined), 2000)
    return () => clearTimeout(timer)
  }, [outcome])

  const copy = async () => {
    try {
      await copySecret(props.value)
      setOutcome('copied')
    } catch {
      setOutcome('failed')
    }
  }

  return (
    <div className="field-row">
      <dt>{props.label}</dt>
      <dd className="row">
        <span className="card-secret-value">{props.shown ?? props.value}</span>
        <Button variant="secondary" onClick={copy}>
          {t('copy.copyThing', { thing: props.label })}
        </Button>
        <span role="status" className="copy-status">
          {outcome === 'copied'
            ? t('cards.copied', { seconds: CLIPBOARD_CLEAR_MS / 1000 })
            : outcome === 'failed'
              ? t('copy.failed')
              : ''}
        </span>
      </dd>
    </div>
  )
}

/** A one-time code for confirming an online payment, shown once and briefly. */
export function CardOtpPanel(props: { card: CardDetail }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const { otp, request, hide, busy, error } = useCardOtp(props.card.id)

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cards.otp.title')}</h2>
      <p className="muted">{t('cards.otp.hint')}</p>
      {otp ? (
        <>
          <p>
            <span className="visually-hidden">{t('cards.otp.code')} </span>
            <span className="card-otp">{otp.code}</span>
          </p>
          <p className="muted">
            {t('cards.otp.validUntil', {
              time: new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(
                new Date(otp.expires_at),
              ),
            })}
          </p>
          <div>
            <Button variant="secondary" onClick={hide}>
              {t('cards.otp.hide')}
            </Button>
          </div>
        </>
      ) : (
        <div>
          <Button variant="secondary" onClick={request} busy={busy} {...server.disabledProps}>
            {t('cards.otp.get')}
          </Button>
          {server.reason}
        </div>
      )}
      {error !== undefined && <CardError error={error} />}
    </section>
  )
}
