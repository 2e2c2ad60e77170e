import { useId, useState } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { isTelegram } from '../../telegram/launch.ts'
import { chooseTheme, storedTheme, THEMES, type Theme } from '../../ui/theme.ts'
import { DigitsChoice } from './digits-choice.tsx'

/**
 * Light, dark, or as the device (in Telegram: as the chat) — for this device
 * only: a phone in the dark and a laptop in an office may want each their own.
 * Below it, where the language has digits of its own, which digits to read.
 */
export function ThemeChoice() {
  const { t } = useI18n()
  const titleId = useId()
  const hintId = useId()
  const [theme, setTheme] = useState<Theme>(storedTheme)
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('profile.appearance')}</h2>
      <fieldset className="fieldset" aria-describedby={hintId}>
        <legend>{t('profile.theme.label')}</legend>
        <div className="theme-choices">
          {THEMES.map((value) => (
            <label key={value} className="choice theme-choice">
              <input
                type="radio"
                name="theme"
                value={value}
                checked={theme === value}
                onChange={() => {
                  chooseTheme(value)
                  setTheme(value)
                }}
              />
              <span className="choice-title">{t(`profile.theme.${value}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id={hintId} className="muted">
        {t(isTelegram() ? 'profile.theme.telegramHint' : 'profile.theme.systemHint')}
      </p>
      <DigitsChoice />
    </section>
  )
}
