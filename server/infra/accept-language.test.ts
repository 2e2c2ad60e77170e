import { describe, expect, it } from 'vitest'
import { acceptedLanguage } from './accept-language.ts'

describe('the language an Accept-Language header asks for', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['ru', 'ru'],
    ['ru-RU', 'ru'],
    ['RU', 'ru'],
    ['ar', 'ar'],
    ['ar-EG', 'ar'],
    // A region falls back to its language; Portuguese is Brazil's whatever the region.
    ['pt-BR', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['de-DE,de;q=0.9', 'de'],
    ['de-CH,de;q=0.9', 'de'],
    ['fa-IR, en;q=0.5', 'fa'],
    // Only the ten (contract/languages.ts): French, Chinese and Klingon are not among them.
    ['fr-CH, ru;q=0.8, en;q=0.5', 'ru'],
    ['x-klingon', 'en'],
    ['zh-Hant-TW', 'en'],
    // q-values order the list; equal ones keep the header's order; q=0 means "not this".
    ['en;q=0.5, ru;q=0.8', 'ru'],
    ['uk;q=0.8, tr;q=0.8', 'uk'],
    ['id;q=0.2, es', 'es'],
    ['ru;q=0, en', 'en'],
    ['ru;q=0', 'en'],
    ['*', 'en'],
    ['*, tr;q=0.1', 'tr'],
    ['en-Abcd', 'en'],
    ['ru-Zzzq', 'ru'],
    ['not a tag!, ru', 'ru'],
  ])('%j is %s', (header, language) => {
    expect(acceptedLanguage(header)).toBe(language)
  })
})
