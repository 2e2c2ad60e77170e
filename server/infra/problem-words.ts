import MessageFormat from '@messageformat/core'
import type { Language } from '../../contract/languages.ts'
import type { Problem } from '../../contract/problem.ts'
import { ar } from './problem-words/ar.ts'
import { de } from './problem-words/de.ts'
import { es } from './problem-words/es.ts'
import { fa } from './problem-words/fa.ts'
import { id } from './problem-words/id.ts'
import { ptBR } from './problem-words/pt-br.ts'
import { ru } from './problem-words/ru.ts'
import { tr } from './problem-words/tr.ts'
import { uk } from './problem-words/uk.ts'

/**
 * What the app says for each problem code, in every language but English
 * (issue 34): copies of the catalogues' `error.<CODE>` made by
 * scripts/problem-words.ts, so a person reads the same sentence in a
 * developer's client, a log or the app. English keeps the server's own
 * details, which say more than the app's words (which field, which limit).
 */
export const PROBLEM_WORDS: Record<Exclude<Language, 'en'>, Readonly<Record<string, string>>> = {
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

/** Each message compiled once, on first use (ICU plurals by the language's CLDR rules). */
const compiled = new Map<string, (values?: Record<string, unknown>) => string>()

function format(language: Language, message: string, values?: Record<string, unknown>) {
  const key = `${language}\u0000${message}`
  let render = compiled.get(key)
  if (!render) {
    render = new MessageFormat(language, { strict: false }).compile(message)
    compiled.set(key, render)
  }
  return render(values)
}

/**
 * A block's end in UTC with the zone named: the server does not know the
 * person's time zone (the app words `blocked_until` in theirs).
 */
const moment = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(iso))

/** The variant a problem's own fields allow, as the app chooses it (src/i18n/error-message.ts). */
function variant(problem: Problem, language: Language): [string, Record<string, unknown>] | [] {
  switch (problem.code) {
    case 'OTP_INVALID':
      return problem.attempts_left === undefined
        ? []
        : ['OTP_INVALID_left', { count: problem.attempts_left }]
    case 'OTP_BLOCKED':
    case 'USER_BLOCKED':
      return problem.blocked_until === undefined
        ? []
        : [`${problem.code}_until`, { time: moment(problem.blocked_until, language) }]
    case 'RATE_LIMITED':
      return problem.retry_after === undefined
        ? []
        : ['RATE_LIMITED_in', { seconds: problem.retry_after }]
    default:
      return []
  }
}

/**
 * The problem's `detail` in `language`, or undefined where it stays the
 * server's English: English asked for, or a code the app words only by its
 * status (those only a developer's client meets, whose English detail says
 * what to fix).
 */
export function problemDetail(problem: Problem, language: Language): string | undefined {
  if (language === 'en') return undefined
  const words = PROBLEM_WORDS[language]
  const [key, values] = variant(problem, language)
  const message = (key && words[key]) || words[problem.code]
  return message === undefined ? undefined : format(language, message, values)
}
