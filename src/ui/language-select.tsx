import { useId } from 'react'
import { LANGUAGES, type Language, languageName, useI18n } from '../i18n/i18n.tsx'

/** The language of the app, each named in its own words; `labelled` shows the label above it. */
export function LanguageSelect(props: { labelled?: boolean }) {
  const { t, language, setLanguage } = useI18n()
  const id = useId()
  return (
    <div className={props.labelled ? 'field' : 'language-select'}>
      <label htmlFor={id} className={props.labelled ? undefined : 'visually-hidden'}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={language}
        onChange={(event) => setLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageName(code)}
          </option>
        ))}
      </select>
    </div>
  )
}
