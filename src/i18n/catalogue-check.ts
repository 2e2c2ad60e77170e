import { parse, type Token } from '@messageformat/parser'
import { directionOf, type Language } from './languages.ts'

/**
 * What makes a catalogue complete against the English one (issue 34): every
 * key, every message valid ICU MessageFormat, the same arguments as English
 * (a lost `{amount}` would print nothing where money belongs), every plural
 * the language's own CLDR categories (`Intl.PluralRules`: Arabic has six), and
 * in a right-to-left language an arrow held by right-to-left marks.
 * Build-time only (tests, scripts/i18n-check.ts): the app ships no parser.
 */
export function catalogueProblems(
  english: Record<string, string>,
  catalogue: Record<string, string>,
  language: string,
): string[] {
  const problems: string[] = []
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
  for (const key of Object.keys(english)) {
    const message = catalogue[key]
    if (message === undefined) {
      problems.push(`${key}: missing`)
      continue
    }
    if (message.trim() === '') {
      problems.push(`${key}: empty`)
      continue
    }
    const theirs = shape(message)
    if ('error' in theirs) {
      problems.push(`${key}: not ICU MessageFormat (${theirs.error})`)
      continue
    }
    const ours = shape(english[key]!)
    if ('error' in ours) continue
    for (const name of ours.arguments) {
      if (!theirs.arguments.has(name)) problems.push(`${key}: lost the argument {${name}}`)
    }
    for (const name of theirs.arguments) {
      if (!ours.arguments.has(name)) problems.push(`${key}: an argument English has not: {${name}}`)
    }
    for (const [name, keys] of theirs.plurals) {
      const absent = categories.filter((category) => !keys.has(category))
      if (absent.length > 0) {
        problems.push(`${key}: the plural of {${name}} lacks ${absent.join(', ')}`)
      }
      // An exact number (=0) is any language's; a category it has not fails the build.
      const foreign = [...keys].filter(
        (each) => !each.startsWith('=') && !(categories as string[]).includes(each),
      )
      if (foreign.length > 0) {
        problems.push(
          `${key}: the plural of {${name}} has ${foreign.join(', ')}, not ${language}’s`,
        )
      }
    }
  }
  for (const key of Object.keys(catalogue)) {
    if (!(key in english)) problems.push(`${key}: not in English`)
    if (directionOf(language as Language) === 'rtl' && LOOSE_ARROW.test(catalogue[key]!)) {
      problems.push(`${key}: an arrow without right-to-left marks (U+200F) on both sides`)
    }
  }
  return problems
}

/**
 * An arrow not between two right-to-left marks. Between two left-to-right
 * words ("{from} ← {to}" with currency codes, "Share ← Add to Home Screen")
 * the bidi algorithm makes it part of their left-to-right run, which then reads
 * backwards; the marks keep it in the sentence's direction.
 */
const LOOSE_ARROW = /(?<!\u200f)[←→]|[←→](?!\u200f)/

interface Shape {
  arguments: Set<string>
  /** Each plural argument and the case keys it gives. */
  plurals: Map<string, Set<string>>
}

function shape(message: string): Shape | { error: string } {
  let tokens: Token[]
  try {
    tokens = parse(message)
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
  const found: Shape = { arguments: new Set(), plurals: new Map() }
  const walk = (list: Token[]) => {
    for (const token of list) {
      if (token.type === 'argument' || token.type === 'function') found.arguments.add(token.arg)
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        found.arguments.add(token.arg)
        if (token.type === 'plural') {
          const keys = found.plurals.get(token.arg) ?? new Set<string>()
          for (const each of token.cases) keys.add(each.key)
          found.plurals.set(token.arg, keys)
        }
        for (const each of token.cases) walk(each.tokens)
      }
    }
  }
  walk(tokens)
  return found
}
