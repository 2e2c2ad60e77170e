import { useSyncExternalStore } from 'react'
import { amountsHidden, setAmountsHidden, subscribeAmountsHidden } from '../i18n/hidden-amounts.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { EyeIcon, EyeOffIcon } from './icons.tsx'

/**
 * The eye in the shell: one tap hides every amount ("•••"), another shows
 * them. A toggle button (aria-pressed), so a screen reader says which way it is.
 */
export function HideAmountsButton(props: { className?: string }) {
  const { t } = useI18n()
  const hidden = useSyncExternalStore(subscribeAmountsHidden, amountsHidden)
  return (
    <button
      type="button"
      className={`icon-button ${props.className ?? ''}`}
      aria-pressed={hidden}
      aria-label={t('amounts.hide')}
      title={hidden ? t('amounts.show') : t('amounts.hide')}
      data-testid="hide-amounts"
      onClick={() => setAmountsHidden(!hidden)}
    >
      {hidden ? <EyeOffIcon /> : <EyeIcon />}
    </button>
  )
}
