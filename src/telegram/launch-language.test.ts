import { describe, expect, it } from 'vitest'
import { telegramLaunchLanguage } from './launch-language.ts'

const launchHash = (user: unknown) => {
  const data = new URLSearchParams({ user: JSON.stringify(user), auth_date: '1', hash: 'x' })
  return `#${new URLSearchParams({ tgWebAppData: data.toString(), tgWebAppVersion: '8.0' })}`
}

describe('telegramLaunchLanguage', () => {
  it('reads the launch user’s language', () => {
    expect(
      telegramLaunchLanguage(launchHash({ id: 1, first_name: 'Ада', language_code: 'ru' })),
    ).toBe('ru')
  })

  it.each([
    ['no hash', ''],
    ['a hash of the app’s own', '#section'],
    ['a user without a language', launchHash({ id: 1 })],
    ['broken user JSON', `#tgWebAppData=${encodeURIComponent('user=%7Bnot-json')}`],
  ])('is undefined for %s', (_, hash) => {
    expect(telegramLaunchLanguage(hash)).toBeUndefined()
  })
})
