import type { Catalogue } from './i18n.tsx'
import type { Language } from './languages.ts'

/**
 * Each language but English, compiled by the build (scripts/i18n-parts.ts),
 * one chunk apiece. Each import() must stay a literal: that is what the
 * bundler splits on.
 */
export const catalogueLoaders: Record<Exclude<Language, 'en'>, () => Promise<Catalogue>> = {
  ru: () => import('virtual:catalogue/ru').then((module) => module.default),
  uk: () => import('virtual:catalogue/uk').then((module) => module.default),
  de: () => import('virtual:catalogue/de').then((module) => module.default),
  es: () => import('virtual:catalogue/es').then((module) => module.default),
  'pt-BR': () => import('virtual:catalogue/pt-BR').then((module) => module.default),
  tr: () => import('virtual:catalogue/tr').then((module) => module.default),
  id: () => import('virtual:catalogue/id').then((module) => module.default),
  fa: () => import('virtual:catalogue/fa').then((module) => module.default),
  ar: () => import('virtual:catalogue/ar').then((module) => module.default),
}
