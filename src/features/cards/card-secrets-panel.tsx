import { useId } from 'react'
import type { CardDetail, CardStatus } from '../../../contract/cards.ts'
import { formatLocale } from '../../i18n/digits.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { Alert, Button } from '../../ui/components.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import type { RevealedSecrets } from '../../workers/card-secrets.ts'
import { cardStatusLabel } from './labels.ts'
import { CLIPBOARD_CLEAR_MS, copySecret } from './secret-clipboard.ts'
import { useCardOtp } from './use-card-reveal.ts'

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

/**
 * Copy buttons for the revealed number, expiry and CVV (the card picture shows
 * them): a copied secret leaves the clipboard after CLIPBOARD_CLEAR_MS.
 */
export function SecretCopyButtons(props: { secrets: RevealedSecrets }) {
  const { t } = useI18n()
  const copied = t('cards.copied', { seconds: CLIPBOARD_CLEAR_MS / 1000 })
  const rows: [string, string][] = [
    [t('cards.reveal.number'), props.secrets.pan],
    [t('cards.reveal.expiry'), props.secrets.expiry],
    [t('cards.reveal.cvv'), props.secrets.cvv],
  ]
  return (
    <div className="card-copy-row">
      {rows.map(([thing, text]) => (
        <CopyButton key={thing} text={text} thing={thing} write={copySecret} copied={copied} />
      ))}
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
              time: new Intl.DateTimeFormat(formatLocale(language), { timeStyle: 'short' }).format(
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
