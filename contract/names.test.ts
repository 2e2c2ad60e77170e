import { describe, expect, it } from 'vitest'
import { normaliseName, VISIBLE_CHARACTER } from './names.ts'

describe('normaliseName', () => {
  it.each([
    ['Savings', 'Savings'],
    ['  Savings  ', 'Savings'],
    // Bidi controls: the right-to-left override that turns "cod.exe" into "exe.doc".
    ['invoice\u202Egpj.exe', 'invoicegpj.exe'],
    ['\u202AA\u202B\u202C\u202D\u202E', 'A'],
    ['\u2066Anna\u2067\u2068\u2069', 'Anna'],
    ['\u200EAnna\u200F', 'Anna'],
    ['\u061CAnna', 'Anna'],
    // Zero-width characters, and the byte-order mark.
    ['An\u200Bna', 'Anna'],
    ['An\u200C\u200Dna', 'Anna'],
    ['\u2060Anna\uFEFF', 'Anna'],
    // NFC: the decomposed "é" becomes the one code point, also once a zero-width space is gone.
    ['Rene\u0301e', 'Renée'],
    ['Rene\u200B\u0301e', 'Renée'],
    ['Ренат', 'Ренат'],
    // Nothing visible: nothing left.
    ['\u200B\u202E \uFEFF', ''],
    ['', ''],
  ])('%j → %j', (given, kept) => {
    expect(normaliseName(given)).toBe(kept)
  })

  it.each([
    ['Savings', true],
    [' a ', true],
    ['Ренат', true],
    ['   ', false],
    ['\u200B', false],
    ['\u202E\u2066 \u200D', false],
    ['', false],
  ])('%j has a visible character: %s', (name, visible) => {
    expect(new RegExp(VISIBLE_CHARACTER, 'u').test(name)).toBe(visible)
  })
})
