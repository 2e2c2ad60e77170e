import { describe, expect, it } from 'vitest'
import { ApiError } from '../net/api.ts'
import { en } from './en.ts'
import { errorMessage } from './error-message.ts'
import { detectLanguage } from './i18n.tsx'
import { ru } from './ru.ts'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('catalogues', () => {
  it.each(Object.keys(en) as (keyof typeof en)[])('%s reads the same placeholders in ru', (key) => {
    expect(ru[key].trim()).not.toBe('')
    expect(placeholders(ru[key])).toEqual(placeholders(en[key]))
  })
})

describe('detectLanguage', () => {
  it.each([
    [['ru-RU', 'en'], 'ru'],
    [['de-DE', 'ru'], 'ru'],
    [['en-GB'], 'en'],
    [['fr', 'de'], 'en'],
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
