import { describe, expect, it } from 'vitest'
import { contactOf, contactText } from './contact.ts'

describe('contactOf', () => {
  it.each([
    ['anna@example.com', { email: 'anna@example.com' }],
    ['  Anna.S@Example.org ', { email: 'Anna.S@Example.org' }],
    ['@anna_s', { telegram_username: 'anna_s' }],
    ['anna_schmidt', { telegram_username: 'anna_schmidt' }],
    ['+49 170 1234567', { phone: '+491701234567' }],
    ['(030) 123-4567', { phone: '0301234567' }],
    ['', undefined],
    ['anna@', undefined],
    ['@ann', undefined],
    ['12345', undefined],
    ['+49 17', undefined],
    ['1234567890123456', undefined],
    ['anna s', undefined],
  ])('reads %j as %j', (text, expected) => {
    expect(contactOf(text)).toEqual(expected)
  })
})

describe('contactText', () => {
  it.each([
    [{ email: 'a@b.co' }, 'a@b.co'],
    [{ phone: '+491701234567' }, '+491701234567'],
    [{ telegram_username: 'anna_s' }, '@anna_s'],
  ] as const)('writes %j as %s', (target, text) => {
    expect(contactText(target)).toBe(text)
  })
})
