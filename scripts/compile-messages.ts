import { fileURLToPath } from 'node:url'
import MessageFormat from '@messageformat/core'
import compileModule from '@messageformat/core/lib/compile-module.js'
import { parse, type Token } from '@messageformat/parser'
import { messageDigits } from '../src/i18n/message-digits.ts'

const DIGITS = fileURLToPath(new URL('../src/i18n/digits.ts', import.meta.url))
const MESSAGE_DIGITS = fileURLToPath(new URL('../src/i18n/message-digits.ts', import.meta.url))

/** Whether `locale` writes figures in Latin digits by default (CLDR: English, Arabic; not Persian). */
const writesLatin = (locale: string) =>
  new Intl.NumberFormat(locale).resolvedOptions().numberingSystem === 'latn'

/**
 * Every plain argument (`{seconds}`) as `{seconds, digits}`: a number given to
 * it is then written in the reader's digits (src/i18n/message-digits.ts), as a
 * plural's `#` is. Rewritten in the source by each token's offset, last first.
 */
function withArgumentDigits(message: string): string {
  const plain: { start: number; end: number; arg: string }[] = []
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument') {
        plain.push({
          start: token.ctx.offset,
          end: token.ctx.offset + token.ctx.text.length,
          arg: token.arg,
        })
      }
      if ('cases' in token) for (const each of token.cases) walk(each.tokens)
    }
  }
  walk(parse(message))
  let rewritten = message
  for (const { start, end, arg } of plain.sort((a, b) => b.start - a.start)) {
    rewritten = `${rewritten.slice(0, start)}{${arg}, digits}${rewritten.slice(end)}`
  }
  return rewritten
}

/**
 * A plural's `#` in the digits the person chose (src/i18n/digits.ts) where
 * the language has digits of its own ("۳ کارت" or "3 کارت" in Persian); a
 * language written in Latin digits anyway (English, the first download's) is
 * left as compiled.
 */
function withDigitsChoice(compiled: string, locale: string): string {
  if (writesLatin(locale)) return compiled
  const quoted = JSON.stringify(locale)
  if (!compiled.includes(`number(${quoted},`)) return compiled
  return `import { formatLocale } from ${JSON.stringify(DIGITS)};\n${compiled.replaceAll(
    `number(${quoted},`,
    `number(formatLocale(${quoted}),`,
  )}`
}

/**
 * A catalogue as the app ships it: ICU MessageFormat compiled at build time by
 * messageformat (docs/decisions.md, issue 34), so the app carries no parser and
 * no interpreter. A message without arguments stays a string; one with
 * arguments, plurals or selects becomes a function of its values, calling
 * @messageformat/runtime (plural rules and `#` numbers in `locale`). Answers
 * an ES module's source whose default export is the catalogue. A message that
 * is not valid ICU, or a plural case the locale does not have, fails the build.
 */
export function messagesModule(messages: Record<string, string>, locale: string): string {
  const plain: Record<string, string> = {}
  const icu: Record<string, string> = {}
  for (const [key, message] of Object.entries(messages)) {
    const tokens = parse(message)
    if (tokens.every((token) => token.type === 'content')) {
      plain[key] = tokens.map((token) => (token.type === 'content' ? token.value : '')).join('')
    } else {
      icu[key] = message
    }
  }
  if (Object.keys(icu).length === 0) return `export default ${JSON.stringify(plain)}`
  const ownDigits = !writesLatin(locale)
  const formatter = new MessageFormat(locale, {
    strict: false,
    customFormatters: ownDigits
      ? { digits: { formatter: messageDigits, id: 'messageDigits', module: MESSAGE_DIGITS } }
      : {},
  })
  const sources = ownDigits
    ? Object.fromEntries(
        Object.entries(icu).map(([key, message]) => [key, withArgumentDigits(message)]),
      )
    : icu
  const compiled = compileModule(formatter, sources)
    .replace('export default {', 'const compiled = {')
    // The browser's own CLDR rules (what the completeness test checks against) instead of
    // the runtime's table of every locale, which would be a chunk every catalogue waits on.
    .replace(
      /import \{ (\w+) \} from "@messageformat\/runtime\/lib\/cardinals";/,
      (_, name: string) =>
        `const ${name} = (n) => new Intl.PluralRules(${JSON.stringify(locale)}).select(n);`,
    )
  return `${withDigitsChoice(compiled, locale)}\nexport default Object.assign(${JSON.stringify(plain)}, compiled)`
}
