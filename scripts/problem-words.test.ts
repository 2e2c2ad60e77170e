import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../contract/languages.ts'
import { PROBLEM_CODES } from '../contract/problem-codes.ts'
import { PROBLEM_WORDS } from '../server/infra/problem-words.ts'
import { CATALOGUES } from '../src/i18n/catalogues.ts'
import { problemWords } from '../src/i18n/error-message.ts'
import type { Translate } from '../src/i18n/i18n.tsx'
import { problemWordKeys, staleProblemWordFiles } from './problem-words.ts'

describe("the server's copies of the app's problem words (issue 34)", () => {
  it('are what the catalogues say now (else: npx tsx scripts/problem-words.ts)', () => {
    expect(staleProblemWordFiles()).toEqual([])
  })

  // The key the app words each code with: a translator that answers the key itself.
  const keyOf = (code: string) => problemWords(code, ((key: string) => key) as Translate)
  const ownWords = PROBLEM_CODES.filter((code) => keyOf(code) === `error.${code}`)

  it('hold every code the app words in words of its own, and no other', () => {
    expect(ownWords.length).toBeGreaterThan(100)
    expect(problemWordKeys().filter((key) => /^[A-Z_]+$/.test(key))).toEqual(ownWords)
  })

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'give each of those codes the words the app shows in %s',
    (language) => {
      const catalogue = CATALOGUES[language] as Record<string, string>
      for (const code of ownWords) {
        expect(PROBLEM_WORDS[language][code], code).toBe(catalogue[`error.${code}`])
        expect(PROBLEM_WORDS[language][code], code).not.toBe('')
      }
    },
  )
})
