import { entry, loaders } from 'virtual:en-parts'
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { telegramLaunchLanguage } from '../telegram/launch-language.ts'
import { formatLocale, latinDigits } from './digits.ts'
import type { MessageKey } from './en.ts'
import { amountsHidden, subscribeAmountsHidden } from './hidden-amounts.ts'
import { directionOf, type Language, languageOfTag } from './languages.ts'
import { type EnPart, partOf } from './parts.ts'

export { isLanguage, LANGUAGES, type Language, languageName } from './languages.ts'

/** A message as the build compiles it (scripts/compile-messages.ts): words, or words of values. */
type Compiled = string | ((values: Record<string, unknown>) => string)
export type Catalogue = Partial<Record<MessageKey, Compiled>>

/*
 * English is the reference, the fallback and what types `t`. Its first
 * screen's words ship in the first download; the rest comes in parts, each
 * loaded with the routes that show it (src/i18n/parts.ts, loadMessages).
 * Every other language is one chunk of its own, fetched only for the people
 * who read it. The service worker precaches them all with the rest of the
 * build, so they load offline too. Each import() must stay a literal: that is
 * what the bundler splits on.
 */
const english: Catalogue = { ...entry }
const englishLoaders = loaders as Record<EnPart, () => Promise<{ default: Catalogue }>>
/**
 * Every other language: its chunk, found through a small table that is a
 * chunk of its own (catalogue-loaders.ts) so the first download carries
 * neither; the service worker precaches both.
 */
const loadCatalogue = (language: Exclude<Language, 'en'>): Promise<Catalogue> =>
  import('./catalogue-loaders.ts').then(({ catalogueLoaders }) => catalogueLoaders[language]())
/** The catalogues in memory. A language renders only once it is here. */
const catalogues: Partial<Record<Language, Catalogue>> = { en: english }
const loading = new Map<Language, Promise<Catalogue>>()

/** The English parts asked for, each settling once it is merged in (or has failed). */
const parts = new Map<EnPart, Promise<void>>()
/** Bumped as each part arrives: the provider draws the screen again with the new words. */
let partsVersion = 0
const partListeners = new Set<() => void>()

function loadPart(part: EnPart): Promise<void> {
  let pending = parts.get(part)
  if (!pending) {
    pending = englishLoaders[part]().then(
      (module) => {
        Object.assign(english, module.default)
        partsVersion += 1
        for (const listener of partListeners) listener()
      },
      (error: unknown) => {
        // Forgotten, so the next route (or the next use of one of its keys) fetches it again.
        parts.delete(part)
        console.error(`[i18n] the English "${part}" words failed to load`, error)
      },
    )
    parts.set(part, pending)
  }
  return pending
}

/**
 * Brings English `parts` into memory (src/i18n/parts.ts); never rejects. The
 * routes call it with their code (withMessages), so a screen's words arrive
 * with it. Loaded whatever the language: English is every language's fallback.
 */
export function loadMessages(...names: EnPart[]): Promise<void> {
  return Promise.all(names.map(loadPart)).then(() => undefined)
}

/**
 * A route's code and the English parts it shows (and "errors", which every
 * screen may show), resolving to the code once all are here.
 */
export function withMessages<T>(code: Promise<T>, ...names: EnPart[]): Promise<T> {
  return Promise.all([code, loadMessages('errors', ...names)]).then(([module]) => module)
}

const subscribeParts = (listener: () => void) => {
  partListeners.add(listener)
  return () => partListeners.delete(listener)
}
const readPartsVersion = () => partsVersion

/**
 * A key whose part is not in memory: a route that did not list it. Nothing
 * shows until it comes (fetched now; the provider draws again), never the
 * key itself.
 */
function missing(key: MessageKey): string {
  const part = partOf(key)
  if (!part) return key
  if (import.meta.env.DEV) {
    console.warn(`[i18n] "${key}" is in the English part "${part}", which this route did not load`)
  }
  void loadPart(part)
  return ''
}

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
    pending = language === 'en' ? Promise.resolve(english) : loadCatalogue(language)
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
    const language = languageOfTag(tag)
    if (language) return language
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
 * `t` for one language: the message with its values (placeholders, plurals,
 * selects: compiled ICU MessageFormat). A language whose catalogue is not in
 * memory yet (see loadLanguage) reads English, and so does a key it lacks.
 */
export function translator(language: Language): Translate {
  const messages = catalogues[language] ?? english
  return (key, values) => {
    const message = messages[key] ?? english[key]
    if (message === undefined) return missing(key)
    return typeof message === 'string' ? message : message(values ?? {})
  }
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
  const version = useSyncExternalStore(subscribeParts, readPartsVersion)
  // Every screen words its amounts again when they are hidden or shown (money.ts reads it), and
  // its numbers, dates and times when Latin digits are chosen or given up (digits.ts).
  const hidden = useSyncExternalStore(subscribeAmountsHidden, amountsHidden)
  const latin = useSyncExternalStore(latinDigits.subscribe, latinDigits.read)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` counts the English parts in memory (each needs a new `t`); `hidden` and `latin` make every consumer format its amounts again
  const value = useMemo<I18n>(() => {
    const dates = new Intl.DateTimeFormat(formatLocale(language), { dateStyle: 'long' })
    document.documentElement.lang = language
    document.documentElement.dir = directionOf(language)
    return {
      language,
      setLanguage,
      t: translator(language),
      formatDate: (date) => dates.format(typeof date === 'string' ? new Date(date) : date),
    }
  }, [language, setLanguage, version, hidden, latin])

  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>
}

export function useI18n(): I18n {
  const context = useContext(I18nContext)
  if (!context) throw new Error('useI18n needs an <I18nProvider> above it')
  return context
}
