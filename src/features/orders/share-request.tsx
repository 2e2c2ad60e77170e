import { useState } from 'react'
import type { PaymentRequest } from '../../../contract/payment-requests.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Button } from '../../ui/components.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'

/** Whether this browser can hand a link to the system's share sheet. */
const canShareLink = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function'

/**
 * A request's ways to reach the payer: its link (shared through the system's
 * sheet where there is one, else copied), the Telegram link when a bot is
 * configured, and the QR code the server drew — our own SVG, shown as an
 * image (never put into the page as markup).
 */
export function ShareRequest(props: { request: PaymentRequest }) {
  const { t, language } = useI18n()
  const { request } = props
  const [shareFailed, setShareFailed] = useState(false)
  const amount = formatMoney(language, request.amount)
  const text = request.note
    ? t('people.request.shareTextNote', { amount, note: request.note })
    : t('people.request.shareText', { amount })
  const share = async () => {
    try {
      await navigator.share({ title: t('people.request.shareTitle'), text, url: request.url })
    } catch (error) {
      // Closing the sheet is no failure; anything else falls back to copying.
      if (!(error instanceof DOMException && error.name === 'AbortError')) setShareFailed(true)
    }
  }
  return (
    <section className="card stack share-request" aria-labelledby={`share-${request.id}`}>
      <h2 id={`share-${request.id}`}>{t('people.request.shareHeading')}</h2>
      <p className="share-request-link">{request.url}</p>
      <div className="share-request-actions">
        {canShareLink() && !shareFailed && (
          <Button onClick={() => void share()}>{t('people.request.share')}</Button>
        )}
        <CopyButton text={request.url} thing={t('people.request.link')} />
      </div>
      {request.telegram_url && (
        <p>
          <a href={request.telegram_url} target="_blank" rel="noreferrer">
            {t('people.request.telegram')}
          </a>
        </p>
      )}
      <img
        className="qr"
        src={`data:image/svg+xml,${encodeURIComponent(request.qr_svg)}`}
        alt={t('people.request.qr', { amount })}
        width={192}
        height={192}
      />
    </section>
  )
}
