import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { formatLocale, latinDigits } from './digits.ts'
import { formatDateTime } from './format.ts'
import { translator } from './i18n.tsx'
import { formatFigure, formatMoney } from './money.ts'

/** Without the marks around them: LRI/PDI (the amount's island) and the marks Intl puts in RTL text. */
const bare = (text: string) => text.replace(/[\u2066-\u2069\u200e\u200f\u061c]/g, '')
const persian = /[\u06f0-\u06f9]/
const latin = /[0-9]/

afterEach(() => {
  latinDigits.set(false)
  localStorage.clear()
})

describe('Latin digits by choice', () => {
  const eur = { amount: '1234.5', currency: 'EUR', chain: null }
  const moment = '2026-03-04T10:05:00Z'
  // The plural's `#` of a compiled message (scripts/compile-messages.ts).
  const count = (language: 'fa' | 'ar') => translator(language)('insights.payments', { count: 3 })

  it('writes Persian in its own digits until the person chooses Latin ones', () => {
    expect(bare(formatMoney('fa', eur))).toMatch(persian)
    expect(bare(formatMoney('fa', eur))).not.toMatch(latin)
    expect(formatDateTime('fa', moment)).toMatch(persian)
    expect(bare(formatFigure('fa', '0.5'))).toBe('۰٫۵')
    expect(count('fa')).toMatch(persian)

    latinDigits.set(true)

    expect(formatLocale('fa')).toBe('fa-u-nu-latn')
    expect(bare(formatMoney('fa', eur))).toMatch(latin)
    expect(bare(formatMoney('fa', eur))).not.toMatch(persian)
    expect(formatDateTime('fa', moment)).toMatch(latin)
    expect(formatDateTime('fa', moment)).not.toMatch(persian)
    expect(bare(formatFigure('fa', '0.5'))).toBe('0.5')
    expect(count('fa')).toBe(count('fa').replace(persian, '3'))
    expect(count('fa')).toMatch(/^3 /)
  })

  it('writes a figure a sentence was given in the same digits as its amounts', () => {
    const wait = () => translator('fa')('code.resendIn', { seconds: 60 })
    expect(wait()).toContain('۶۰')
    expect(wait()).not.toMatch(latin)
    latinDigits.set(true)
    expect(wait()).toContain('60')
    expect(wait()).not.toMatch(persian)
    // A value that is not a number is the message's as it came.
    expect(translator('fa')('home.signedInAs', { email: 'a1@example.com' })).toContain(
      'a1@example.com',
    )
    expect(translator('en')('code.resendIn', { seconds: 60 })).toContain('60')
  })

  it('writes Arabic as its CLDR default does (Latin for "ar"), chosen or not', () => {
    // "ar" alone reads 0123 in CLDR 42 and later (Node's and Chromium's); the choice changes nothing.
    const before = [bare(formatMoney('ar', eur)), formatDateTime('ar', moment), count('ar')]
    expect(before.join(' ')).not.toMatch(/[\u0660-\u0669]/)
    latinDigits.set(true)
    expect([bare(formatMoney('ar', eur)), formatDateTime('ar', moment), count('ar')]).toEqual(
      before,
    )
  })

  it('leaves English as it is', () => {
    latinDigits.set(true)
    expect(formatMoney('en', eur)).toBe('€1,234.50')
  })
})

/** Every source file of the app, tests aside. */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

describe('every formatter takes its locale from formatLocale', () => {
  /** Formatters that write digits, with what they are given first. */
  const FORMATTER = /(?:NumberFormat|DateTimeFormat|RelativeTimeFormat)\(\s*([^,)]*)/g
  /** The choice itself shows the language's own digits whatever is chosen. */
  const EXEMPT = ['src/features/profile/digits-choice.tsx']

  it('builds no number, date or time formatter from a bare language', () => {
    const bareOnes: string[] = []
    for (const file of sources('src')) {
      const name = relative('.', file)
      if (EXEMPT.includes(name)) continue
      const code = readFileSync(file, 'utf8')
      for (const [, locale] of code.matchAll(FORMATTER)) {
        // The zone's formatter (no locale), a fixed one for keys ("en-CA" → 2026-11-12), or
        // `locale` where the file takes it from formatLocale.
        const fine =
          locale === '' ||
          /^formatLocale\(/.test(locale!) ||
          /^['"]/.test(locale!) ||
          (locale === 'locale' && code.includes('const locale = formatLocale('))
        if (!fine) bareOnes.push(`${name}: ${locale}`)
      }
      if (/\.toLocale(?:Date|Time)?String\(/.test(code)) bareOnes.push(`${name}: toLocaleString`)
    }
    expect(bareOnes).toEqual([])
  })
})
