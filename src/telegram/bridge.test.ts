import { describe, expect, it, vi } from 'vitest'
import {
  applyThemeParams,
  keepLaunchForSdk,
  launchParamsForSdk,
  postToTelegram,
  themeVariables,
} from './bridge.ts'
import { parseLaunchParams } from './launch.ts'

describe('the Telegram bridge the app keeps without the SDK', () => {
  it('names the theme’s colours as the SDK does, and skips what is not a colour', () => {
    expect(
      themeVariables({ bg_color: '#17212b', secondary_bg_color: '#232e3c', bad: 'url(x)' }),
    ).toEqual({ '--tg-theme-bg-color': '#17212b', '--tg-theme-secondary-bg-color': '#232e3c' })
    const root = document.createElement('div')
    applyThemeParams(root, { button_color: '#5288c1' })
    expect(root.style.getPropertyValue('--tg-theme-button-color')).toBe('#5288c1')
  })

  it('tells the mobile clients through their proxy, and Telegram Web through the parent frame', () => {
    const proxy = { postEvent: vi.fn() }
    expect(postToTelegram({ TelegramWebviewProxy: proxy }, 'web_app_ready')).toBe(true)
    expect(proxy.postEvent).toHaveBeenCalledWith('web_app_ready', '{}')

    const parent = { postMessage: vi.fn() }
    expect(postToTelegram({ parent, self: 1, top: 2 }, 'web_app_ready')).toBe(true)
    expect(parent.postMessage).toHaveBeenCalledWith(
      JSON.stringify({ eventType: 'web_app_ready' }),
      'https://web.telegram.org',
    )

    const notify = vi.fn()
    expect(postToTelegram({ external: { notify } }, 'web_app_expand')).toBe(true)
    expect(notify).toHaveBeenCalledWith(JSON.stringify({ eventType: 'web_app_expand' }))

    const alone = {}
    expect(
      postToTelegram(
        { ...alone, parent: { postMessage: vi.fn() }, self: alone, top: alone },
        'web_app_ready',
      ),
    ).toBe(false)
  })

  it('gives the SDK the launch without its init data, which a client before 8.0 sends unsigned', () => {
    const initData = 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc'
    const launch = parseLaunchParams(
      new URLSearchParams({
        tgWebAppData: initData,
        tgWebAppVersion: '7.0',
        tgWebAppPlatform: 'ios',
        tgWebAppThemeParams: '{"bg_color":"#ffffff"}',
      }).toString(),
    )!
    expect(launch.initData).toBe(initData)
    const forSdk = new URLSearchParams(launchParamsForSdk(launch))
    expect(forSdk.has('tgWebAppData')).toBe(false)
    expect(forSdk.get('tgWebAppVersion')).toBe('7.0')
    expect(forSdk.get('tgWebAppThemeParams')).toBe('{"bg_color":"#ffffff"}')
  })
})

describe('the SDK’s copy of the launch', () => {
  it('is kept without the init data, so the SDK’s own checks parse a launch without `signature`', () => {
    const launch = parseLaunchParams(
      new URLSearchParams({
        tgWebAppData: 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc',
        tgWebAppVersion: '7.0',
        tgWebAppPlatform: 'android',
      }).toString(),
    )!
    const stored = new Map<string, string>()
    keepLaunchForSdk({ sessionStorage: { setItem: (k, v) => void stored.set(k, v) } }, launch)
    const kept = new URLSearchParams(JSON.parse(stored.get('tapps/launchParams')!) as string)
    expect(kept.has('tgWebAppData')).toBe(false)
    expect(kept.get('tgWebAppVersion')).toBe('7.0')
    // A webview whose storage refuses: nothing thrown.
    expect(() =>
      keepLaunchForSdk(
        {
          sessionStorage: {
            setItem: () => {
              throw new Error('QuotaExceededError')
            },
          },
        },
        launch,
      ),
    ).not.toThrow()
  })
})
