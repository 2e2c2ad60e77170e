import { describe, expect, it } from 'vitest'
import { EVENT_KINDS } from '../../../contract/events.ts'
import { formatAmount } from './format-amount.ts'
import type { Case } from './message-case-test-support.ts'
import { ACCOUNT_CASES } from './message-cases-account-test-support.ts'
import { MONEY_CASES } from './message-cases-money-test-support.ts'
import { PEOPLE_CASES } from './message-cases-people-test-support.ts'
import { eventMessage } from './messages.ts'

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

describe('an amount in a message', () => {
  it.each([
    ['en', '1234.5', 'EUR', undefined, '€1,234.50'],
    ['ru', '1234.5', 'EUR', 'out', '−1\u00a0234,50\u00a0€'],
    ['en', '0.001018850000', 'BTC', 'in', '+0.00101885\u00a0BTC'],
    ['en', '0.000000001234567891', 'ETH', undefined, '0.0000000012345678\u00a0ETH'],
    ['en', '0.00', 'EUR', 'in', '€0.00'],
    ['en', 'not an amount', 'EUR', undefined, ''],
  ] as const)('in %s, %s %s %s reads %s', (language, amount, currency, sign, shown) => {
    expect(formatAmount(language, amount, currency, sign)).toBe(shown)
  })
})
