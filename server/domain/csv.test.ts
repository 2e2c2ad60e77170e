import { describe, expect, it } from 'vitest'
import { csvField, csvRecord } from './csv.ts'

describe('CSV fields (RFC 4180)', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [19, '19'],
    ['1.500000', '1.500000'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line\nbreak', '"line\nbreak"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    ['crlf\r\n', '"crlf\r\n"'],
    ['ünïcødé ✓', 'ünïcødé ✓'],
  ] as const)('%j is written %j', (value, written) => {
    expect(csvField(value)).toBe(written)
  })

  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
  ])('a formula %j gets a leading apostrophe: %j', (value, written) => {
    expect(csvField(value)).toBe(written)
  })

  it('a value with a formula character later on is left alone', () => {
    expect(csvField('a=b+c-d@e')).toBe('a=b+c-d@e')
  })

  it('a record ends with CRLF', () => {
    expect(csvRecord(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n')
  })
})
