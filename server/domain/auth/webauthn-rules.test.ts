import { describe, expect, it } from 'vitest'
import { describeDevice, freshUntil, isFresh, stepUpMethods } from './webauthn-rules.ts'

describe('a proof’s freshness', () => {
  const now = new Date('2026-01-01T12:00:00Z')
  it.each([
    [null, false],
    [new Date('2026-01-01T11:55:01Z'), true],
    [new Date('2026-01-01T11:55:00Z'), false],
    [new Date('2026-01-01T11:00:00Z'), false],
  ])('proven at %s: fresh %s', (at, fresh) => {
    expect(isFresh(at, now)).toBe(fresh)
  })
  it('lasts five minutes', () => {
    expect(freshUntil(now)?.toISOString()).toBe('2026-01-01T12:05:00.000Z')
  })
})

describe('the proofs a session can give', () => {
  const none = { hasPasskey: false, hasTelegramBiometrics: false, hasContact: false }
  it.each([
    [
      'web, a passkey and an e-mail',
      { ...none, appEnv: 'web', hasPasskey: true, hasContact: true },
      ['passkey', 'otp'],
    ],
    [
      'web, biometrics enrolled elsewhere',
      { ...none, appEnv: 'web', hasTelegramBiometrics: true },
      [],
    ],
    [
      'Telegram: no WebAuthn there',
      { ...none, appEnv: 'telegram', hasPasskey: true, hasContact: true },
      ['otp'],
    ],
    [
      'Telegram with biometrics',
      { ...none, appEnv: 'telegram', hasTelegramBiometrics: true },
      ['telegram_biometrics'],
    ],
  ] as const)('%s', (_, facts, methods) => {
    expect(stepUpMethods(facts)).toEqual(methods)
  })
})

describe('a device from its user agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome, macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari, iPhone',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge, Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox, Linux'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Chrome, Linux',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome, Android',
    ],
    ['curl/8.5.0', 'curl/8.5.0'],
  ])('%s → %s', (agent, device) => {
    expect(describeDevice(agent)).toBe(device)
  })
  it('says nothing without a user agent', () => {
    expect(describeDevice(undefined)).toBeNull()
  })
})
