import { describe, expect, it } from 'vitest'
import {
  detectTelegramLaunch,
  KEPT_LAUNCH_KEY,
  LAUNCH_PARAMS_KEY,
  parseLaunchParams,
  telegramHostPresent,
} from './launch.ts'

const initData = new URLSearchParams({
  user: JSON.stringify({ id: 7, first_name: 'Ада', language_code: 'ru' }),
  auth_date: '1700000000',
  hash: 'abc',
}).toString()

const launchParams = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify({ bg_color: '#17212b', text_color: '#f5f5f5', bad: 1 }),
    ...extra,
  }).toString()

function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries))
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  }
}

describe('parseLaunchParams', () => {
  it('reads the init data, platform, version, theme colours and language', () => {
    expect(parseLaunchParams(`#${launchParams()}`)).toEqual({
      raw: launchParams(),
      initData,
      platform: 'android',
      version: '8.0',
      themeParams: { bg_color: '#17212b', text_color: '#f5f5f5' },
      botInline: false,
      languageCode: 'ru',
      userId: '7',
      firstName: 'Ада',
    })
  })

  it('has no user id when the init data names no user', () => {
    const bare = new URLSearchParams({ auth_date: '1', hash: 'abc' }).toString()
    expect(parseLaunchParams(launchParams({ tgWebAppData: bare }))?.userId).toBeUndefined()
  })

  it.each([
    ['an empty hash', ''],
    ['the app’s own hash', '#section'],
    ['init data set to "0"', `#${launchParams({ tgWebAppData: '0' })}`],
    ['init data set to "false"', `#${launchParams({ tgWebAppData: 'false' })}`],
    ['empty init data', `#${launchParams({ tgWebAppData: '' })}`],
  ])('is not a launch for %s', (_, hash) => {
    expect(parseLaunchParams(hash)).toBeUndefined()
  })

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
    ['FALSE', false],
    ['', false],
  ])('reads tgWebAppBotInline=%j as %s', (value, expected) => {
    expect(parseLaunchParams(launchParams({ tgWebAppBotInline: value }))?.botInline).toBe(expected)
  })

  it('ignores theme params that are not JSON', () => {
    expect(parseLaunchParams(launchParams({ tgWebAppThemeParams: '{' }))?.themeParams).toEqual({})
  })
})

describe('detectTelegramLaunch', () => {
  it('takes the launch from the hash and keeps it for a reload', () => {
    const storage = memoryStorage()
    const launch = detectTelegramLaunch({
      hash: `#${launchParams()}`,
      storage,
      enabled: true,
      host: true,
    })
    expect(launch?.initData).toBe(initData)
    expect(storage.map.get(KEPT_LAUNCH_KEY)).toBe(JSON.stringify(launchParams()))
  })

  it('finds the kept launch after a reload without the hash, ours before the SDK’s', () => {
    const storage = memoryStorage({ [KEPT_LAUNCH_KEY]: JSON.stringify(launchParams()) })
    expect(detectTelegramLaunch({ hash: '', storage, enabled: true, host: true })?.platform).toBe(
      'android',
    )
    // The SDK's copy (a mocked launch's, or one the SDK kept) serves when ours is not there.
    const sdks = memoryStorage({ [LAUNCH_PARAMS_KEY]: JSON.stringify(launchParams()) })
    expect(
      detectTelegramLaunch({ hash: '', storage: sdks, enabled: true, host: true })?.initData,
    ).toBe(initData)
    // The copy bridge.ts gives the SDK has no init data: no launch to sign in with.
    const sdkOnly = memoryStorage({
      [LAUNCH_PARAMS_KEY]: JSON.stringify(launchParams({ tgWebAppData: '' })),
    })
    expect(
      detectTelegramLaunch({ hash: '', storage: sdkOnly, enabled: true, host: true }),
    ).toBeUndefined()
  })

  it('is no launch in a plain browser tab', () => {
    expect(
      detectTelegramLaunch({ hash: '', storage: memoryStorage(), enabled: true, host: true }),
    ).toBeUndefined()
  })

  it('is no launch when kept data is broken', () => {
    const storage = memoryStorage({ [LAUNCH_PARAMS_KEY]: '{not json' })
    expect(detectTelegramLaunch({ hash: '', storage, enabled: true, host: true })).toBeUndefined()
  })

  it('is no launch when the build turned the Mini App off', () => {
    const storage = memoryStorage()
    expect(
      detectTelegramLaunch({ hash: `#${launchParams()}`, storage, enabled: false, host: true }),
    ).toBeUndefined()
    expect(storage.map.size).toBe(0)
  })

  it('is no launch without a Telegram host, even with init data in the hash', () => {
    const storage = memoryStorage()
    expect(
      detectTelegramLaunch({ hash: `#${launchParams()}`, storage, enabled: true, host: false }),
    ).toBeUndefined()
    expect(storage.map.size).toBe(0)
    const kept = memoryStorage({ [LAUNCH_PARAMS_KEY]: JSON.stringify(launchParams()) })
    expect(
      detectTelegramLaunch({ hash: '', storage: kept, enabled: true, host: false }),
    ).toBeUndefined()
  })
})

describe('telegramHostPresent', () => {
  const top = {}
  const page = (extra: Record<string, unknown>) => ({ document: {}, self: top, top, ...extra })

  it('is no host in a plain top-level browser tab', () => {
    expect(telegramHostPresent(page({}))).toBe(false)
    expect(telegramHostPresent(page({ external: {} }))).toBe(false)
    expect(telegramHostPresent(page({ TelegramWebviewProxy: {} }))).toBe(false)
  })

  it('finds the mobile clients’ TelegramWebviewProxy', () => {
    expect(telegramHostPresent(page({ TelegramWebviewProxy: { postEvent() {} } }))).toBe(true)
  })

  it('finds window.external.notify', () => {
    expect(telegramHostPresent(page({ external: { notify() {} } }))).toBe(true)
  })

  it('finds a parent frame (Telegram Web), even a cross-origin one', () => {
    expect(telegramHostPresent(page({ self: {}, top }))).toBe(true)
    const crossOrigin = {
      document: {},
      self: {},
      get top(): unknown {
        throw new DOMException('Blocked a frame', 'SecurityError')
      },
    }
    expect(telegramHostPresent(crossOrigin)).toBe(true)
  })

  it('is no host in a worker, which has no document', () => {
    expect(telegramHostPresent({ self: {}, top: undefined })).toBe(false)
  })
})
