import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { appSettingProblems } from './app-settings.mjs'

const pem = (type: 'rsa' | 'ed25519') =>
  generateKeyPairSync(type as 'rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  }).publicKey

describe('the app’s build-time settings', () => {
  it('takes none, empty ones and well-formed ones', () => {
    expect(appSettingProblems({})).toEqual([])
    expect(appSettingProblems({ VITE_TENANT_ID: '', VITE_API_V2_URL: '' })).toEqual([])
    expect(
      appSettingProblems({
        VITE_API_V1_URL: '/api/v1',
        VITE_API_V2_URL: 'https://api.example.com/api/v2',
        VITE_TENANT_ID: '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01',
        VITE_LOGOUT_LOCATION: '/auth/logout',
        VITE_TELEGRAM_MINI_APP: 'false',
        VITE_CARD_SECRET_PUBLIC_KEY: pem('rsa'),
        NODE_ENV: 'production',
      }),
    ).toEqual([])
  })

  it('refuses a mistyped name and says which names exist', () => {
    const [problem] = appSettingProblems({ VITE_TENANTID: 'x' })
    expect(problem).toMatch(/^VITE_TENANTID is not a setting of the app \(known: VITE_API_V1_URL, /)
  })

  it.each([
    ['VITE_TENANT_ID', 'demo', 'must be a tenant id (a UUID)'],
    ['VITE_API_V2_URL', 'api/v2', 'must be a path starting with "/" or an http(s) URL'],
    ['VITE_API_V2_URL', '/api/v2/', 'must not end with "/"'],
    ['VITE_API_V1_URL', '//evil.example/api', 'must be a path starting with "/" or an http(s) URL'],
    [
      'VITE_LOGOUT_LOCATION',
      'javascript:alert(1)',
      'must be a path starting with "/" or an http(s) URL',
    ],
    ['VITE_CARD_SECRET_PUBLIC_KEY', 'not a key', 'must be a PEM public key'],
  ])('refuses %s=%j', (name, value, message) => {
    const problems = appSettingProblems({ [name]: value })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(`${name} ${message}`)
    expect(problems[0]).toContain(JSON.stringify(value))
  })

  it('refuses a public key that is not RSA (the exchange is RSA-OAEP)', () => {
    expect(appSettingProblems({ VITE_CARD_SECRET_PUBLIC_KEY: pem('ed25519') })).toEqual([
      expect.stringContaining('VITE_CARD_SECRET_PUBLIC_KEY must be an RSA public key'),
    ])
  })
})
