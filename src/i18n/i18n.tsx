import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import { telegramLaunchLanguage } from '../telegram/launch-language.ts'
import { en, type MessageKey } from './en.ts'
import { ru } from './ru.ts'

export const LANGUAGES = ['en', 'ru'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language in its own words: a person looking for theirs reads it in theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ru: 'Русский' }

export const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value)

const catalogues = { en, ru }
const STORAGE_KEY = 'language'

/**
 * The person's own choice first, then the language Telegram or the browser
 * reports; anything we do not speak falls back to English.
 */
export function detectLanguage(
  preferred: readonly (string | undefined)[] = [
    readStoredLanguage(),
    telegramLaunchLanguage(),
    ...(globalThis.navigator?.languages ?? []),
  ],
): Language {
  for (const tag of preferred) {
    const base = tag?.toLowerCase().split('-')[0]
    if ((LANGUAGES as readonly string[]).includes(base ?? '')) return base as Language
  }
  return 'en'
}

function readStoredLanguage(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? undefined
  } catch {
    return undefined
  }
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string

/** `t` for one language: the message, its {placeholders} filled in. */
export function translator(language: Language): Translate {
  const messages = catalogues[language]
  return (key, values) =>
    messages[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? `{${name}}`))
}

interface I18n {
  language: Language
  setLanguage: (language: Language) => void
  t: Translate
  formatDate: (value: Date | string) => string
}

const I18nContext = createContext<I18n | null>(null)

export function I18nProvider(props: { children: ReactNode; initial?: Language }) {
  const [language, setLanguageState] = useState<Language>(props.initial ?? detectLanguage)

  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next)
    try {
      localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // Private mode: the choice lasts for this visit only.
    }
  }, [])

  const value = useMemo<I18n>(() => {
    const dates = new Intl.DateTimeFormat(language, { dateStyle: 'long' })
    document.documentElement.lang = language
    return {
      language,
      setLanguage,
      t: translator(language),
      formatDate: (date) => dates.format(typeof date === 'string' ? new Date(date) : date),
    }
  }, [language, setLanguage])

  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>
}

export function useI18n(): I18n {
  const context = useContext(I18nContext)
  if (!context) throw new Error('useI18n needs an <I18nProvider> above it')
  return context
}
