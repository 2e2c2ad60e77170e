import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { telegramLaunchLanguage } from '../telegram/launch-language.ts'
import { en, type MessageKey, type Messages } from './en.ts'

export const LANGUAGES = ['en', 'ru'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language in its own words: a person looking for theirs reads it in theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ru: 'Русский' }

export const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value)

/*
 * English ships in the first download: it is the reference, the fallback and
 * what types `t`. Every other catalogue is a chunk of its own, fetched only
 * for the people who read it; the service worker precaches it with the rest
 * of the build, so it loads offline too. Each import() must stay a literal:
 * that is what the bundler splits on.
 */
const loaders: Record<Language, () => Promise<Messages>> = {
  en: async () => en,
  ru: () => import('./ru.ts').then((module) => module.ru),
}
/** The catalogues in memory. A language renders only once it is here. */
const catalogues: Partial<Record<Language, Messages>> = { en }
const loading = new Map<Language, Promise<Messages>>()

const STORAGE_KEY = 'language'

/**
 * Brings `language`'s catalogue into memory and resolves to it, or to
 * English when the chunk cannot be fetched (offline before the worker cached
 * it, a deploy that removed it). Never rejects; a failure is forgotten, so
 * the next attempt fetches again.
 */
export async function loadLanguage(language: Language): Promise<Language> {
  if (catalogues[language]) return language
  let pending = loading.get(language)
  if (!pending) {
    pending = loaders[language]()
    loading.set(language, pending)
  }
  try {
    catalogues[language] = await pending
    return language
  } catch (error) {
    console.error(`[i18n] the ${language} catalogue failed to load`, error)
    return 'en'
  } finally {
    loading.delete(language)
  }
}

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

/**
 * `t` for one language: the message, its {placeholders} filled in. A language
 * whose catalogue is not in memory yet (see loadLanguage) reads English.
 */
export function translator(language: Language): Translate {
  const messages = catalogues[language] ?? en
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

/**
 * `language` is the language on screen, never one still loading: a switch
 * keeps the current words until the new catalogue is in memory, then swaps
 * them in one render, and a failed load leaves them as they are. The app
 * loads the starting language before its first render (src/app/main.tsx),
 * so a Russian start never shows English first.
 */
export function I18nProvider(props: { children: ReactNode; initial?: Language }) {
  const [wanted] = useState<Language>(props.initial ?? detectLanguage)
  const [language, setShown] = useState<Language>(() => (catalogues[wanted] ? wanted : 'en'))
  // The last language asked for: a slow load of an earlier choice must not override it.
  const latest = useRef(wanted)

  const show = useCallback((next: Language, remember: boolean) => {
    latest.current = next
    const apply = () => {
      setShown(next)
      if (!remember) return
      try {
        localStorage.setItem(STORAGE_KEY, next)
      } catch {
        // Private mode: the choice lasts for this visit only.
      }
    }
    if (catalogues[next]) {
      apply()
      return
    }
    void loadLanguage(next).then((ready) => {
      if (ready === next && latest.current === next) apply()
    })
  }, [])

  // Only when started in a language that is not in memory (the app loads it first).
  useEffect(() => {
    if (!catalogues[wanted]) show(wanted, false)
  }, [wanted, show])

  const setLanguage = useCallback((next: Language) => show(next, true), [show])

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
