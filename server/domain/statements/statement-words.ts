import type { Language } from '../../../contract/languages.ts'
import { AR } from './statement-words-ar.ts'
import { DE } from './statement-words-de.ts'
import { EN } from './statement-words-en.ts'
import { ES } from './statement-words-es.ts'
import { FA } from './statement-words-fa.ts'
import { ID } from './statement-words-id.ts'
import { PT_BR } from './statement-words-pt-br.ts'
import { RU } from './statement-words-ru.ts'
import { TR } from './statement-words-tr.ts'
import { UK } from './statement-words-uk.ts'

/**
 * A statement's and a receipt's words in every language the app speaks: one
 * file per language, each typed by the English one, so a key missing or
 * misspelt in any fails the type check.
 */
export type StatementWords = typeof EN

export const STATEMENT_WORDS: Record<Language, StatementWords> = {
  en: EN,
  ru: RU,
  uk: UK,
  de: DE,
  es: ES,
  'pt-BR': PT_BR,
  tr: TR,
  id: ID,
  fa: FA,
  ar: AR,
}

/** The languages written right to left: their statements are laid out mirrored. */
export const isRightToLeft = (language: Language) => language === 'ar' || language === 'fa'
