import { describe, expect, it } from 'vitest'
import { formatReference, normalizeReference } from './reference-rules.ts'

describe('deposit references', () => {
  it('are FP- and eight Crockford base32 characters from 40 random bits', () => {
    expect(formatReference(new Uint8Array([0, 0, 0, 0, 0]))).toBe('FP-0000-0000')
    expect(formatReference(new Uint8Array([255, 255, 255, 255, 255]))).toBe('FP-ZZZZ-ZZZZ')
    expect(formatReference(new Uint8Array([0x12, 0x34, 0x56, 0x78, 0x9a]))).toBe('FP-28T5-CY4T')
    expect(() => formatReference(new Uint8Array(4))).toThrow()
  })

  it.each([
    ['FP-28T5-CY4T', 'FP-28T5-CY4T'],
    ['fp 28t5 cy4t', 'FP-28T5-CY4T'],
    ['28T5CY4T', 'FP-28T5-CY4T'],
    // Crockford reads I and L as 1, O as 0: a reference retyped from paper still matches.
    ['FP-OOOO-IL11', 'FP-0000-1111'],
    ['FP-28T5-CY4', undefined],
    ['FP-28T5-CY4U', undefined],
    ['hello', undefined],
  ])('%s reads as %s', (typed, reference) => {
    expect(normalizeReference(typed)).toBe(reference)
  })
})
