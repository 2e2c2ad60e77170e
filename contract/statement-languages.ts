/**
 * The languages a statement is worded in so far (its PDF's fonts and words);
 * a file of its own so the app's first download does not carry it. No imports.
 */
export const STATEMENT_LANGUAGES = ['en', 'ru'] as const
export type StatementLanguage = (typeof STATEMENT_LANGUAGES)[number]

/** The statement's language for a person reading `language`: theirs when a statement speaks it, else English. */
export const statementLanguageFor = (language: string): StatementLanguage =>
  STATEMENT_LANGUAGES.find((known) => known === language) ?? 'en'
