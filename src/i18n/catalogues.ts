import { ar } from './ar.ts'
import { de } from './de.ts'
import type { Messages } from './en.ts'
import { es } from './es.ts'
import { fa } from './fa.ts'
import { id } from './id.ts'
import type { Language } from './languages.ts'
import { ptBR } from './pt-br.ts'
import { ru } from './ru.ts'
import { tr } from './tr.ts'
import { uk } from './uk.ts'

/**
 * Every language but English, as written (ICU MessageFormat). Read at build
 * time only: scripts/i18n-parts.ts compiles each into the chunk the app
 * loads, and the completeness test checks each against English.
 */
export const CATALOGUES: Record<Exclude<Language, 'en'>, Messages> = {
  ru,
  uk,
  de,
  es,
  'pt-BR': ptBR,
  tr,
  id,
  fa,
  ar,
}
