import { describe, expect, it } from 'vitest'
import { maskEmail, maskPhone } from './masks.ts'

describe('masks', () => {
  it.each([
    ['ada@example.com', 'a***@example.com'],
    ['a@b.example', 'a***@b.example'],
    ['@example.com', '***'],
    ['no-at-sign', '***'],
  ])('the e-mail %s shows as %s', (email, shown) => {
    expect(maskEmail(email)).toBe(shown)
  })

  it.each([
    ['+4915112345678', '+49 *** 78'],
    ['4915112345678', '+49 *** 78'],
    ['+1234', '***'],
  ])('the phone %s shows as %s', (phone, shown) => {
    expect(maskPhone(phone)).toBe(shown)
  })
})
