/**
 * The languages a statement or a receipt is worded in: every language the
 * app speaks (issue 34). A file of its own so the app's first download does
 * not carry the statement contract; it imports only the language list.
 */
import { LANGUAGES, type Language } from './languages.ts'

export const STATEMENT_LANGUAGES = LANGUAGES
export type StatementLanguage = Language

/** The statement's language for a person reading `language`: theirs when a statement speaks it, else English. */
export const statementLanguageFor = (language: string): StatementLanguage =>
  STATEMENT_LANGUAGES.find((known) => known === language) ?? 'en'
