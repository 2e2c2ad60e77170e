import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { eventMessage } from './messages.ts'
import { eventPath, pushKeysProblem } from './rules.ts'

/** A browser's key pair, as PushSubscription.toJSON spells its public half. */
const ecdh = createECDH('prime256v1')
ecdh.generateKeys()
const point = ecdh.getPublicKey()
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const offCurve = Buffer.from(point)
offCurve[64] = (offCurve[64] ?? 0) ^ 1
const good = { p256dh: b64(point), auth: b64(randomBytes(16)) }

describe('push subscription keys (RFC 8291)', () => {
  it.each([
    ['a browser’s keys', good, undefined],
    ['padded base64url', { ...good, auth: `${good.auth}==` }, undefined],
    [
      'a compressed point',
      { ...good, p256dh: b64(ecdh.getPublicKey(null, 'compressed')) },
      'p256dh',
    ],
    ['a point off the curve', { ...good, p256dh: b64(offCurve) }, 'p256dh'],
    [
      '65 bytes not starting 0x04',
      { ...good, p256dh: b64(Buffer.concat([Buffer.from([2]), point.subarray(1)])) },
      'p256dh',
    ],
    ['64 bytes', { ...good, p256dh: b64(point.subarray(1)) }, 'p256dh'],
    ['not base64url', { ...good, p256dh: `${good.p256dh.slice(1)}+` }, 'p256dh'],
    ['random text', { ...good, p256dh: 'key' }, 'p256dh'],
    ['an auth of 15 bytes', { ...good, auth: b64(randomBytes(15)) }, 'auth'],
    ['an auth of 32 bytes', { ...good, auth: b64(randomBytes(32)) }, 'auth'],
    ['an auth that is not base64url', { ...good, auth: 'not/base64url/!!' }, 'auth'],
  ])('%s: %s', (_name, keys, key) => {
    expect(pushKeysProblem(keys)?.key).toBe(key)
  })
})

describe('security alerts lead where the password is changed', () => {
  const newDevice = { session_id: 'x', user_agent: null, signed_in_at: '2026-01-01T00:00:00Z' }
  const changed = { via: 'change', changed_at: '2026-01-01T00:00:00Z' }

  it.each([
    ['security.sign_in_new_device', newDevice],
    ['security.password_changed', changed],
  ] as const)('%s opens the security screen', (kind, data) => {
    expect(eventPath(kind, data)).toBe('/profile/security')
  })

  it.each([
    [
      'en',
      'security.sign_in_new_device',
      newDevice,
      /change your password in Sign-in and security/,
    ],
    [
      'ru',
      'security.sign_in_new_device',
      newDevice,
      /смените пароль в разделе «Вход и безопасность»/,
    ],
    ['en', 'security.password_changed', changed, /reset your password from the sign-in screen/],
    ['ru', 'security.password_changed', changed, /сбросьте пароль на экране входа/],
  ] as const)('in %s, %s says where to go', (language, kind, data, words) => {
    expect(eventMessage(kind, data, language).body).toMatch(words)
  })
})
