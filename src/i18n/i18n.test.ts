import { describe, expect, it } from 'vitest'
import { ApiError } from '../net/api.ts'
import { catalogueProblems } from './catalogue-check.ts'
import { CATALOGUES } from './catalogues.ts'
import { en } from './en.ts'
import { errorMessage } from './error-message.ts'
import { detectLanguage } from './i18n.tsx'

describe('catalogues', () => {
  it.each(Object.entries(CATALOGUES))(
    '%s has every key, argument and plural category of English, in valid ICU',
    (language, catalogue) => {
      expect(catalogueProblems(en, catalogue, language)).toEqual([])
    },
  )

  it('names what a catalogue lacks', () => {
    const broken = {
      ...CATALOGUES.ru,
      'auth.signIn': '',
      'code.sentTo': 'Код отправлен.',
      'insights.payments': '{count, plural, one {# платёж} two {# платежа} other {# платежа}}',
      'cards.accounts.cardCount': '{count, plural, one {# карта} few {# карты}',
    }
    const { 'app.loading': _, ...withoutOne } = broken
    expect(catalogueProblems(en, { ...withoutOne, extra: 'x' }, 'ru')).toEqual([
      'app.loading: missing',
      'auth.signIn: empty',
      'code.sentTo: lost the argument {destination}',
      expect.stringMatching(/^cards\.accounts\.cardCount: not ICU MessageFormat/),
      'insights.payments: the plural of {count} lacks few, many',
      'insights.payments: the plural of {count} has two, not ru’s',
      'extra: not in English',
    ])
  })

  it('refuses an arrow a right-to-left reader would read backwards', () => {
    const arrows = { ...CATALOGUES.fa, 'activity.title.exchange': 'تبدیل {from} ← {to}' }
    expect(catalogueProblems(en, arrows, 'fa')).toEqual([
      'activity.title.exchange: an arrow without right-to-left marks (U+200F) on both sides',
    ])
    expect(catalogueProblems(en, en, 'en')).toEqual([])
  })
})

describe('detectLanguage', () => {
  it.each([
    [['ru-RU', 'en'], 'ru'],
    [['pt-br'], 'pt-BR'],
    [['pt-PT', 'en'], 'pt-BR'],
    [['fa-IR'], 'fa'],
    [['ar-EG', 'en'], 'ar'],
    [['uk-UA'], 'uk'],
    [['zh-CN', 'id-ID'], 'id'],
    [['de-DE', 'ru'], 'de'],
    [['en-GB'], 'en'],
    [['fr', 'de'], 'de'],
    [['fr', 'it'], 'en'],
    [[undefined, 'RU'], 'ru'],
    [[], 'en'],
  ] as const)('picks the first language we speak from %j', (preferred, expected) => {
    expect(detectLanguage(preferred)).toBe(expected)
  })
})

describe('errorMessage', () => {
  const t = (key: string) => key
  it('names a known problem code', () => {
    const error = new ApiError(400, {
      type: 'x',
      title: 'Bad Request',
      status: 400,
      code: 'INVALID_CREDENTIALS',
    })
    expect(errorMessage(error, t)).toBe('error.INVALID_CREDENTIALS')
  })

  it('calls a failed fetch a lost connection', () => {
    expect(errorMessage(new TypeError('Failed to fetch'), t)).toBe('error.network')
  })

  it('words an answer without a known code by its status', () => {
    expect(errorMessage(new ApiError(500, undefined), t)).toBe('error.status.500')
  })

  it('apologises for anything else', () => {
    expect(errorMessage(new Error('boom'), t)).toBe('error.generic')
  })
})
