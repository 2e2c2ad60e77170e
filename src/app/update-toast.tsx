import { useI18n } from '../i18n/i18n.tsx'
import { Button } from '../ui/components.tsx'
import { updateStore } from './service-worker.ts'

/** "A new version is ready", with "Later" and "Reload" (src/app/pwa.tsx shows it while a worker waits). */
export default function UpdateToast() {
  const { t } = useI18n()
  return (
    <div className="toast" role="status">
      <span>{t('pwa.updateAvailable')}</span>
      <span className="row">
        <Button variant="quiet" onClick={updateStore.dismiss}>
          {t('pwa.later')}
        </Button>
        <Button onClick={updateStore.apply}>{t('pwa.reload')}</Button>
      </span>
    </div>
  )
}
