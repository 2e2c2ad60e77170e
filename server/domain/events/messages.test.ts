import { describe, expect, it } from 'vitest'
import { EVENT_KINDS } from '../../../contract/events.ts'
import { LANGUAGES } from '../../../contract/languages.ts'
import { formatAmount } from '../format-amount.ts'
import { wayOutButton } from './control-wording.ts'
import type { Case } from './message-case-test-support.ts'
import { ACCOUNT_CASES } from './message-cases-account-test-support.ts'
import { MONEY_CASES } from './message-cases-money-test-support.ts'
import { PEOPLE_CASES } from './message-cases-people-test-support.ts'
import { eventMessage, openButtonText } from './messages.ts'
import { securityEmail } from './rules.ts'

/** Every kind, in both languages: who, what and how much, as the activity feed says them. */
const CASES: Case[] = [...MONEY_CASES, ...ACCOUNT_CASES, ...PEOPLE_CASES]

describe('what a push or a bot message says', () => {
  it.each(CASES)('%s (%s) in %s', (_, kind, data, language, title, body) => {
    expect(eventMessage(kind, data, language)).toEqual({ title, body })
  })

  it('has a case for every kind, in both languages', () => {
    for (const language of ['en', 'ru'] as const) {
      const covered = new Set(CASES.filter((c) => c[3] === language).map((c) => c[1]))
      expect(
        [...EVENT_KINDS].filter((kind) => !covered.has(kind)),
        language,
      ).toEqual([])
    }
  })

  it('never says the ledger’s words, nor the same amount twice', () => {
    for (const [, kind, data, language] of CASES) {
      const { title, body } = eventMessage(kind, data, language)
      expect(`${title} ${body}`).not.toMatch(/Order (completed|failed)|Заявка|→ €|€\S+ → /)
    }
  })
})

describe('every kind in every language', () => {
  const english = CASES.filter((c) => c[3] === 'en')
  const others = LANGUAGES.filter((language) => language !== 'en')
  const table = others.flatMap((language) =>
    english.map(([name, kind, data]) => [name, kind, language, data] as const),
  )

  it.each(table)('%s (%s) in %s is said, not in English', (_, kind, language, data) => {
    const theirs = eventMessage(kind, data, language)
    const ours = eventMessage(kind, data, 'en')
    // A line is there exactly when the English one is; the payload's own words (a name, an
    // address) may stay as they are, but never the whole message.
    expect(Boolean(theirs.title), 'title').toBe(Boolean(ours.title))
    expect(Boolean(theirs.body), 'body').toBe(Boolean(ours.body))
    expect(`${theirs.title}\n${theirs.body}`).not.toBe(`${ours.title}\n${ours.body}`)
    expect(`${theirs.title} ${theirs.body}`).not.toMatch(/undefined|NaN|\[object/)
  })

  it.each(others)(
    'the buttons and a security e-mail in %s are not the English ones',
    (language) => {
      expect(openButtonText(language)).not.toBe(openButtonText('en'))
      expect(wayOutButton(language)).not.toBe(wayOutButton('en'))
      const mail = (as: typeof language | 'en') =>
        securityEmail('security.password_changed', {}, as, 'https://app.test/profile', 'https://l')
      const [, , , seeIt, , wayOut, , advice] = mail(language).body.split('\n')
      const [, , , ourSeeIt, , ourWayOut, , ourAdvice] = mail('en').body.split('\n')
      expect(seeIt).toContain('https://app.test/profile')
      expect(seeIt).not.toBe(ourSeeIt)
      expect(wayOut).toContain('https://l')
      expect(wayOut).not.toBe(ourWayOut)
      expect(advice).not.toBe(ourAdvice)
    },
  )
})

describe('an amount in a message', () => {
  it.each([
    ['en', '1234.5', 'EUR', undefined, '€1,234.50'],
    ['ru', '1234.5', 'EUR', 'out', '−1\u00a0234,50\u00a0€'],
    ['en', '0.001018850000', 'BTC', 'in', '+0.00101885\u00a0BTC'],
    ['en', '0.000000001234567891', 'ETH', undefined, '0.0000000012345678\u00a0ETH'],
    ['en', '0.00', 'EUR', 'in', '€0.00'],
    ['en', 'not an amount', 'EUR', undefined, ''],
    // Each language's marks and digits, as Intl writes them for its tag.
    ['de', '1234.5', 'EUR', 'in', '+1.234,50\u00a0€'],
    ['pt-BR', '1234.5', 'EUR', undefined, '€\u00a01.234,50'],
    ['fa', '1234.5', 'EUR', undefined, '\u200e€۱٬۲۳۴٫۵۰'],
    ['fa', '1234.05', 'BTC', 'in', '+۱٬۲۳۴٫۰۵\u00a0BTC'],
  ] as const)('in %s, %s %s %s reads %s', (language, amount, currency, sign, shown) => {
    expect(formatAmount(language, amount, currency, sign)).toBe(shown)
  })
})
