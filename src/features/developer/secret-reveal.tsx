import { useEffect, useId, useRef, useState } from 'react'
import type { ApiKeyWithSecret } from '../../../contract/developer.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Alert, Button } from '../../ui/components.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'

/**
 * A key's secret, the one time it is shown: copy it, read the warning, say it
 * is saved. "Done" forgets it — nothing else ever held it (mutations.ts).
 */
export function SecretReveal(props: {
  apiKey: ApiKeyWithSecret
  rotated: boolean
  onDone: () => void
}) {
  const { t, language } = useI18n()
  const titleId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const [saved, setSaved] = useState(false)
  const { apiKey } = props

  // The page changed under the person's focus: take them to what appeared.
  useEffect(() => heading.current?.focus(), [])

  return (
    <section className="card stack dev-secret" aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {props.rotated
          ? t('dev.secret.rotatedTitle', { name: apiKey.name })
          : t('dev.secret.title', { name: apiKey.name })}
      </h2>
      <Alert tone="warning">{t('dev.secret.warning')}</Alert>
      <div className="stack">
        <p className="muted">{t('dev.secret.label')}</p>
        <code className="dev-secret-value">{apiKey.secret}</code>
        <CopyButton text={apiKey.secret} thing={t('dev.secret.thing')} />
        <p className="muted">{t('dev.secret.usage')}</p>
        {apiKey.previous_secret_expires_at && (
          <p>
            {t('dev.key.oldSecretUntil', {
              time: formatDateTime(language, apiKey.previous_secret_expires_at),
            })}
          </p>
        )}
      </div>
      <label className="dev-check">
        <input
          type="checkbox"
          checked={saved}
          onChange={(event) => setSaved(event.target.checked)}
        />
        {t('dev.secret.saved')}
      </label>
      <Button disabled={!saved} onClick={props.onDone}>
        {t('dev.secret.done')}
      </Button>
    </section>
  )
}
