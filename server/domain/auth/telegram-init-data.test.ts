import { isValid } from '@telegram-apps/init-data-node'
import { describe, expect, it } from 'vitest'
import type { TelegramUser } from '../../../contract/telegram.ts'
import {
  type InitDataVerdict,
  profileFromLaunchUser,
  verifyInitData,
} from './telegram-init-data.ts'
import {
  launchUser,
  signedInitData,
  TEST_BOT_TOKEN,
  tampered,
  withoutSignature,
  withUserField,
} from './telegram-test-support.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')
const MAX_AGE = 3600
const secondsAgo = (seconds: number) => new Date(NOW.getTime() - seconds * 1000)

const USER = launchUser({ id: 279058397 })
const FRESH = signedInitData({ user: USER, authDate: secondsAgo(60) })
const verify = (raw: string) =>
  verifyInitData(raw, TEST_BOT_TOKEN, { maxAgeSeconds: MAX_AGE, now: NOW })

describe('verifyInitData', () => {
  const refused = (reason: string) => ({ ok: false, reason })
  const cases: Array<[string, string, InitDataVerdict | object]> = [
    [
      'init data signed with the bot token is accepted with its launch user',
      FRESH,
      {
        ok: true,
        user: USER,
        authDate: expect.any(Date),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ],
    [
      'init data signed exactly the max age ago is still accepted',
      signedInitData({ user: USER, authDate: secondsAgo(MAX_AGE) }),
      { ok: true, user: USER, authDate: secondsAgo(MAX_AGE), hash: expect.any(String) },
    ],
    [
      'a second past the max age is stale',
      signedInitData({ user: USER, authDate: secondsAgo(MAX_AGE + 1) }),
      refused('stale'),
    ],
    [
      'init data signed by another bot is refused',
      signedInitData({ user: USER, botToken: '7000000002:another-bot' }),
      refused('signature'),
    ],
    [
      'a changed first name breaks the signature',
      withUserField(FRESH, 'first_name', 'Eve'),
      refused('signature'),
    ],
    ['a changed user id breaks the signature', withUserField(FRESH, 'id', 1), refused('signature')],
    [
      'a moved-forward auth_date breaks the signature',
      tampered(FRESH, 'auth_date', String(Math.floor(NOW.getTime() / 1000))),
      refused('signature'),
    ],
    ['an added field breaks the signature', `${FRESH}&start_param=admin`, refused('signature')],
    [
      'a hash with one digit changed is refused',
      tampered(FRESH, 'hash', flipLastHexDigit(new URLSearchParams(FRESH).get('hash')!)),
      refused('signature'),
    ],
    ['no hash at all is malformed', deleteField(FRESH, 'hash'), refused('malformed')],
    [
      'a hash that is not 64 hex digits is malformed',
      tampered(FRESH, 'hash', 'abc'),
      refused('malformed'),
    ],
    ['a string that is not init data is malformed', 'hello', refused('malformed')],
    [
      'signed init data without a launch user names no user',
      signedInitData({ user: null, authDate: secondsAgo(60) }),
      refused('no_user'),
    ],
  ]

  it.each(cases)('%s', (_name, raw, verdict) => {
    expect(verify(raw)).toEqual(verdict)
  })

  it('init data without the newer "signature" field is accepted when its hash checks out', () => {
    expect(verify(withoutSignature(FRESH))).toMatchObject({ ok: true, user: USER })
  })

  it('agrees with the library’s own check on valid and tampered data', () => {
    const now = new Date()
    const fresh = signedInitData({ user: USER, authDate: now })
    const forged = withUserField(fresh, 'first_name', 'Eve')
    const ours = (raw: string) =>
      verifyInitData(raw, TEST_BOT_TOKEN, { maxAgeSeconds: MAX_AGE, now }).ok

    expect([ours(fresh), ours(forged)]).toEqual([
      isValid(fresh, TEST_BOT_TOKEN, { expiresIn: MAX_AGE }),
      isValid(forged, TEST_BOT_TOKEN, { expiresIn: MAX_AGE }),
    ])
    expect(ours(fresh)).toBe(true)
  })
})

describe('profileFromLaunchUser', () => {
  const base = launchUser({ id: 1 })
  const cases: Array<[string, Partial<TelegramUser>, object]> = [
    [
      'every field of the launch user is kept',
      { language_code: 'ru', is_premium: true },
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        username: 'ada_l',
        language: 'ru',
        is_premium: true,
        photo_url: base.photo_url,
      },
    ],
    ['a regional tag picks its language', { language_code: 'en-GB' }, { language: 'en' }],
    [
      'a language the app does not speak is left unset',
      { language_code: 'fr' },
      { language: null },
    ],
    ['no language code leaves it unset', { language_code: undefined }, { language: null }],
    [
      'missing optional fields become null and not premium',
      { last_name: undefined, username: undefined, photo_url: undefined, is_premium: undefined },
      { last_name: null, username: null, photo_url: null, is_premium: false },
    ],
    [
      'names are trimmed',
      { first_name: '  Ada ', last_name: ' ' },
      { first_name: 'Ada', last_name: null },
    ],
  ]

  it.each(cases)('%s', (_name, overrides, expected) => {
    expect(profileFromLaunchUser({ ...base, ...overrides })).toMatchObject(expected)
  })
})

function flipLastHexDigit(hash: string): string {
  return hash.slice(0, -1) + (hash.endsWith('0') ? '1' : '0')
}

function deleteField(initData: string, key: string): string {
  const params = new URLSearchParams(initData)
  params.delete(key)
  return params.toString()
}
