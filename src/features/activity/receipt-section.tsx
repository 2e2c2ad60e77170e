import { useState } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { useMiniApp } from '../../telegram/mini-app.tsx'
import { Alert, Button } from '../../ui/components.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { canShareFile, saveFile, shareFile } from '../../ui/save-file.ts'
import { receiptFile, receiptLink } from './receipt.ts'

/** The item as a PDF receipt: saved, or shared where the device shares files. */
export function Receipt(props: { id: string }) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const miniApp = useMiniApp()
  const [busy, setBusy] = useState<'save' | 'share' | undefined>()
  const [failed, setFailed] = useState(false)
  const hand = async (how: 'save' | 'share') => {
    setBusy(how)
    setFailed(false)
    try {
      const options = {
        language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
      }
      // Telegram fetches the file itself (and offers to save or share it): a link with no sign-in.
      if (miniApp?.downloadFile) {
        const link = await receiptLink(props.id, options)
        await miniApp.downloadFile(link.url, `receipt-${props.id}.pdf`)
        return
      }
      const file = await receiptFile(props.id, options)
      if (how === 'share' && canShareFile(file)) await shareFile(file, t('activity.receipt.title'))
      else saveFile(file)
    } catch (error) {
      console.error('[activity] the receipt could not be handed over', error)
      setFailed(true)
    } finally {
      setBusy(undefined)
    }
  }
  return (
    <section className="card stack" aria-labelledby="activity-receipt">
      <h2 id="activity-receipt">{t('activity.receipt.title')}</h2>
      <p className="muted">{t('activity.receipt.lead')}</p>
      <div className="row activity-receipt-actions">
        <Button
          variant="secondary"
          busy={busy === 'save'}
          onClick={() => hand('save')}
          {...server.disabledProps}
        >
          {t('activity.receipt.download')}
        </Button>
        {!miniApp?.downloadFile && canShareFile() && (
          <Button
            variant="secondary"
            busy={busy === 'share'}
            onClick={() => hand('share')}
            {...server.disabledProps}
          >
            {t('activity.receipt.share')}
          </Button>
        )}
      </div>
      {server.reason}
      {failed && <Alert>{t('activity.receipt.failed')}</Alert>}
    </section>
  )
}
