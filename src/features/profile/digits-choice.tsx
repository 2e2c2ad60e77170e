import { useId, useSyncExternalStore } from 'react'
import { latinDigits } from '../../i18n/digits.ts'
import { useI18n } from '../../i18n/i18n.tsx'

/**
 * The digits a language writes by default when they are not Latin ("arabext"
 * for Persian), else undefined: asked of the browser's CLDR, never a list of
 * ours ("ar" alone reads 0123 in today's CLDR; "ar-EG" would read ٠١٢٣).
 */
export function nativeDigits(language: string): string | undefined {
  const system = new Intl.NumberFormat(language).resolvedOptions().numberingSystem
  return system === 'latn' ? undefined : system
}

/** "۰۱۲۳" in `system`'s digits, as the choice shows them. */
const sample = (language: string, system: string) =>
  new Intl.NumberFormat(language, {
    numberingSystem: system,
    minimumIntegerDigits: 4,
    useGrouping: false,
  }).format(123)

/**
 * Persian digits (۰۱۲۳) or Latin (0123) for every amount, date and time, for
 * this device only, as the theme is (docs/decisions.md, issue 34). Shown only
 * where the language has digits of its own: in English there is nothing to choose.
 */
export function DigitsChoice() {
  const { t, language } = useI18n()
  const hintId = useId()
  const latin = useSyncExternalStore(latinDigits.subscribe, latinDigits.read)
  const native = nativeDigits(language)
  if (!native) return null
  const options = [
    { value: 'native', digits: sample(language, native), latin: false },
    { value: 'latin', digits: sample(language, 'latn'), latin: true },
  ] as const
  return (
    <>
      <fieldset className="fieldset" aria-describedby={hintId}>
        <legend>{t('profile.digits.label')}</legend>
        <div className="theme-choices">
          {options.map((option) => (
            <label key={option.value} className="choice theme-choice">
              <input
                type="radio"
                name="digits"
                value={option.value}
                checked={latin === option.latin}
                onChange={() => latinDigits.set(option.latin)}
              />
              <span className="choice-text">
                <bdi className="choice-title">{option.digits}</bdi>
                <span className="choice-explain">{t(`profile.digits.${option.value}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id={hintId} className="muted">
        {t('profile.digits.hint')}
      </p>
    </>
  )
}
