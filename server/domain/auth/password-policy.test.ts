import { describe, expect, it } from 'vitest'
import { judgePassword, type PasswordVerdict } from './password-policy.ts'

const EMAIL = 'ada.lovelace@example.com'
const accepted: PasswordVerdict = { ok: true }
const refused = (reason: RegExp) => ({ ok: false, reason: expect.stringMatching(reason) })

describe('judgePassword', () => {
  const cases: Array<[string, string, string | undefined, PasswordVerdict | object]> = [
    ['a long passphrase is accepted', 'correct horse battery staple', EMAIL, accepted],
    ['exactly eight uncommon characters are accepted', 'kq7#vL2m', EMAIL, accepted],
    ['seven characters are too short', 'kq7#vL2', EMAIL, refused(/at least 8 characters/)],
    [
      'length counts characters, not UTF-16 units: four emoji are four',
      '🔑🔑🔑🔑',
      EMAIL,
      refused(/at least 8/),
    ],
    ['a breached favourite is refused', 'password1', EMAIL, refused(/most common/)],
    ['the common list ignores letter case', 'PassWord1', EMAIL, refused(/most common/)],
    ['digits-only favourites are refused too', '12345678', EMAIL, refused(/most common/)],
    ['keyboard walks from the list are refused', 'qwerty123', EMAIL, refused(/most common/)],
    [
      'the e-mail’s local part inside the password is refused',
      'my-ada.lovelace-2026!',
      EMAIL,
      refused(/e-mail/),
    ],
    [
      'the local part is found whatever its letter case',
      'ADA.LOVELACE-rocks-9',
      EMAIL,
      refused(/e-mail/),
    ],
    [
      'the whole address as the password is refused',
      'ada.lovelace@example.com',
      EMAIL,
      refused(/e-mail/),
    ],
    [
      'the part before a +tag counts as the local part',
      'zq-ada-zq-ada-zq',
      'ada+bank@example.com',
      refused(/e-mail/),
    ],
    [
      'a local part of one or two letters is not looked for',
      'al-kq7#vL2m-al',
      'al@example.com',
      accepted,
    ],
    ['without an e-mail only length and the list count', 'ada.lovelace-2026', undefined, accepted],
  ]

  it.each(cases)('%s', (_name, password, email, verdict) => {
    expect(judgePassword(password, { email })).toEqual(verdict)
  })
})
