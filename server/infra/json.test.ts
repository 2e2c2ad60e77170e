import { describe, expect, it } from 'vitest'
import { nulField } from './json.ts'

describe('finding a NUL character in a request', () => {
  it('names the first string or key holding one by its JSON pointer', () => {
    expect(nulField({ a: 'x', b: [{ c: 'y' }, { d: 'z\u0000' }] }, '/body')).toBe('/body/b/1/d')
    expect(nulField({ 'a/b~c': '\u0000' }, '/body')).toBe('/body/a~1b~0c')
    expect(nulField({ 'k\u0000': 1 }, '/querystring')).toBe('/querystring/k\u0000')
    expect(nulField('\u0000', '/body')).toBe('/body')
    expect(nulField({ a: 'fine', b: 1, c: null, d: [true] }, '/body')).toBeUndefined()
    expect(nulField(undefined, '/body')).toBeUndefined()
  })

  it('walks a body nested deeper than the call stack goes', () => {
    const depth = 200_000
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`)
    expect(nulField(deep, '/body')).toBe(`/body${'/0'.repeat(depth)}`)
  })
})
