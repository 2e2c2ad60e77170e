import { beforeAll, describe, expect, it } from 'vitest'
import { alwaysTold, EVENT_KINDS, QUIET_KINDS, quiet } from '../../../contract/event-kinds.ts'
import { loadLanguage, type Translate, translator } from '../../i18n/i18n.tsx'
import { describeNotification } from './describe.ts'
import type { Case } from './describe-case.ts'
import { ACCOUNT_CASES } from './describe-cases-account.ts'
import { MONEY_CASES } from './describe-cases-money.ts'
import { PEOPLE_CASES } from './describe-cases-people.ts'
import { KIND_GROUPS } from './kind-groups.ts'

const en = translator('en')
let ru: Translate = translator('ru')
beforeAll(async () => {
  await loadLanguage('ru')
  ru = translator('ru')
})
/** Every kind, in both languages: who or what, what happened, how much — the activity feed's words. */
const CASES: Case[] = [...MONEY_CASES, ...ACCOUNT_CASES, ...PEOPLE_CASES]

describe('what a notification says', () => {
  it.each(CASES)('%s (%s) in %s', (_, kind, data, language, said) => {
    const t = language === 'en' ? en : ru
    expect(describeNotification({ kind, data }, t, language)).toEqual(said)
  })

  it('has a case for every kind, in both languages, and a place in the preferences', () => {
    for (const language of ['en', 'ru'] as const) {
      const covered = new Set(CASES.filter((c) => c[3] === language).map((c) => c[1]))
      expect(
        [...EVENT_KINDS].filter((kind) => !covered.has(kind)),
        language,
      ).toEqual([])
    }
  })

  it('says something of an event older or emptier than this version knows, with no placeholder left', () => {
    for (const kind of EVENT_KINDS) {
      for (const [t, language] of [
        [en, 'en'],
        [ru, 'ru'],
      ] as const) {
        const said = describeNotification({ kind, data: {} }, t, language)
        expect(said.title).not.toBe('')
        expect(`${said.title} ${said.detail}`).not.toMatch(/\{/)
      }
    }
    // The preferences list what may be muted; the always-told kinds are named in one line, and
    // the quiet ones (never pushed: nothing to mute) not at all.
    const listed = KIND_GROUPS.flatMap((group) => group.kinds)
    expect(listed.filter((kind) => alwaysTold(kind) || quiet(kind))).toEqual([])
    expect([...listed, ...EVENT_KINDS.filter(alwaysTold), ...QUIET_KINDS].sort()).toEqual(
      [...EVENT_KINDS].sort(),
    )
  })

  it.each([
    [
      { form_factor: 'PHYSICAL', last4: '4242', delivery_to: 'London, GB' },
      'Physical card ·· 4242, sent to London, GB',
    ],
    [{ form_factor: 'VIRTUAL', last4: '4242', delivery_to: null }, 'Virtual card ·· 4242'],
  ])('a new card says which and where it goes: %j', (data, detail) => {
    const said = describeNotification({ kind: 'card.issued', data }, en, 'en')
    expect(said).toEqual({ title: 'New card issued', detail })
  })

  it('a device turned on for notifications is named, else said to be unknown', () => {
    const kind = 'security.push_subscription_added'
    expect(describeNotification({ kind, data: { device: 'Chrome, macOS' } }, en, 'en').detail).toBe(
      'On Chrome, macOS',
    )
    expect(describeNotification({ kind, data: { device: null } }, en, 'en').detail).toBe(
      'On a device we can’t name',
    )
  })
})
