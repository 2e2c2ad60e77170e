import { describe, expect, it } from 'vitest'
import { href } from '../../paths.ts'
import { nextAfterSignIn } from './next-after-sign-in.ts'

describe('nextAfterSignIn', () => {
  const id = '0190b0a4-0000-7000-8000-00000000ab04'
  it.each([
    [`?next=${encodeURIComponent(`/pay/${id}`)}`, `/pay/${id}`],
    ['', '/'],
    ['?next=', '/'],
    ['?next=//evil.example/pay', '/'],
    ['?next=/\\evil.example', '/'],
    ['?next=https://evil.example', '/'],
    ['?next=javascript:alert(1)', '/'],
  ])('after %j goes to %s', (search, path) => {
    expect(nextAfterSignIn(search)).toBe(path)
  })

  it('round-trips the links a request’s page builds', () => {
    const link = href.signUp({ next: href.paymentRequest(id) })
    expect(nextAfterSignIn(link.slice(link.indexOf('?')))).toBe(`/pay/${id}`)
  })
})
