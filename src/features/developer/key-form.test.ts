import { describe, expect, it } from 'vitest'
import { problem } from '../../../tests/support/mock-api.ts'
import { ApiError } from '../../net/api.ts'
import { changesOf, checkKeyForm, ipsOf, refusedKeyFields } from './key-form.ts'
import { anApiKey } from './test-builders.ts'

const refusal = (errors: { field: string; message: string }[]) => {
  const body = problem(422, 'VALIDATION_FAILED', { errors }).body as never
  return new ApiError(422, body)
}

describe('the key form', () => {
  it('reads one address per line, commas and spaces too, and drops blank ones', () => {
    expect(ipsOf(' 203.0.113.7\n\n198.51.100.0/24, 2001:db8::1 ')).toEqual([
      '203.0.113.7',
      '198.51.100.0/24',
      '2001:db8::1',
    ])
    expect(ipsOf('  \n ')).toEqual([])
  })

  it('needs a name of at most 100 characters', () => {
    expect(checkKeyForm({ name: '  ', role: 'READ_ONLY', ips: '' })).toEqual({
      name: { key: 'error.required' },
    })
    expect(checkKeyForm({ name: 'x'.repeat(101), role: 'READ_ONLY', ips: '' })).toEqual({
      name: { key: 'error.field.name' },
    })
    expect(checkKeyForm({ name: 'Exports', role: 'READ_ONLY', ips: 'anything' })).toEqual({})
  })

  it('names the line of the first address the server refused', () => {
    expect(
      refusedKeyFields(
        refusal([
          { field: '/body/allowed_ips/2', message: 'bad' },
          { field: '/body/allowed_ips/4', message: 'bad' },
        ]),
      ),
    ).toEqual({ ips: { key: 'dev.form.ipInvalid', params: { line: 3 } } })
    expect(refusedKeyFields(new ApiError(500, undefined))).toEqual({})
  })

  it('sends only what changed', () => {
    const key = anApiKey({ name: 'Exports', role: 'READ_ONLY', allowed_ips: ['10.0.0.1'] })
    expect(changesOf(key, { name: ' Exports ', role: 'READ_ONLY', ips: '10.0.0.1' })).toEqual({})
    expect(changesOf(key, { name: 'Reports', role: 'DEVELOPER', ips: '' })).toEqual({
      name: 'Reports',
      role: 'DEVELOPER',
      allowed_ips: [],
    })
  })
})
