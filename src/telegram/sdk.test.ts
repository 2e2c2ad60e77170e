import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TelegramLimitError } from './limits.ts'

/** An SDK function as v3 wraps them: callable, with isAvailable and ifAvailable. */
function safe<A extends unknown[], R>(impl: (...args: A) => R, available = true) {
  const fn = vi.fn(impl)
  return Object.assign(fn, {
    isAvailable: vi.fn(() => available),
    ifAvailable: vi.fn((...args: A) => (available ? [true, fn(...args)] : [false])),
  })
}

const sdk = vi.hoisted(() => ({}) as Record<string, unknown>)

vi.mock('@telegram-apps/sdk', () => sdk)

function fakeSdk() {
  const themeSubscribers: Array<() => void> = []
  Object.assign(sdk, {
    init: vi.fn(),
    parseLaunchParamsQuery: vi.fn((raw: string) => {
      const params = new URLSearchParams(raw)
      return {
        ...(params.has('tgWebAppData') && { tgWebAppData: params.get('tgWebAppData') }),
        tgWebAppVersion: params.get('tgWebAppVersion'),
        tgWebAppPlatform: params.get('tgWebAppPlatform'),
        tgWebAppThemeParams: JSON.parse(params.get('tgWebAppThemeParams') ?? '{}'),
      }
    }),
    miniApp: { mountSync: safe(() => {}), ready: safe(() => {}) },
    // A client without biometrics (Telegram biometrics are tested with the step-up dialog).
    biometry: { isSupported: vi.fn(() => false) },
    themeParams: {
      mountSync: safe(() => {}),
      bindCssVars: safe(() => () => {}),
      backgroundColor: vi.fn(() => '#17212b'),
      state: { sub: vi.fn((fn: () => void) => themeSubscribers.push(fn)) },
    },
    viewport: {
      mount: safe(() => Promise.resolve()),
      expand: safe(() => {}),
      bindCssVars: safe(() => () => {}),
    },
    backButton: {
      mount: safe(() => {}),
      show: safe(() => {}),
      hide: safe(() => {}),
      onClick: safe((_: () => void) => () => {}),
    },
    mainButton: {
      mount: safe(() => {}),
      setParams: safe((_: unknown) => {}),
      onClick: safe((_: () => void) => () => {}),
    },
    closingBehavior: {
      mount: safe(() => {}),
      enableConfirmation: safe(() => {}),
      disableConfirmation: safe(() => {}),
    },
    hapticFeedback: {
      notificationOccurred: safe((_: string) => {}),
      selectionChanged: safe(() => {}),
    },
    popup: { open: safe(async (_: unknown) => 'ok') },
    sendData: safe((_: string) => {}),
    requestContact: safe((_: { abortSignal: AbortSignal }) => new Promise(() => {})),
    downloadFile: safe(async (_url: string, _fileName: string) => {}),
  })
  return Object.assign(sdk, { themeSubscribers }) as unknown as Record<
    string,
    Record<string, ReturnType<typeof safe>>
  > & {
    init: ReturnType<typeof vi.fn>
    sendData: ReturnType<typeof safe>
    requestContact: ReturnType<typeof safe>
    downloadFile: ReturnType<typeof safe>
    themeSubscribers: Array<() => void>
  }
}

/** A launch from a client before Bot API 8.0: its init data has no `signature`. */
const LAUNCH = {
  raw: new URLSearchParams({
    tgWebAppData: 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc',
    tgWebAppVersion: '7.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify({ bg_color: '#17212b' }),
  }).toString(),
  initData: 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc',
  platform: 'android',
  version: '7.0',
  themeParams: { bg_color: '#17212b' },
  botInline: false,
  languageCode: undefined,
  userId: '7',
  firstName: undefined,
}

const start = async () => (await import('./sdk.ts')).startMiniApp(LAUNCH)

describe('startMiniApp', () => {
  it('initialises, binds the theme and the viewport, expands and says it is ready', async () => {
    const fake = fakeSdk()
    await start()
    expect(fake.init).toHaveBeenCalledOnce()
    // Our launch, without the init data the SDK would refuse for lacking `signature`;
    // and no inline <style> for Telegram Web's custom styles, which the CSP refuses.
    expect(fake.init).toHaveBeenCalledWith({
      launchParams: {
        tgWebAppVersion: '7.0',
        tgWebAppPlatform: 'android',
        tgWebAppThemeParams: { bg_color: '#17212b' },
      },
      acceptCustomStyles: false,
    })
    expect(fake.themeParams!.mountSync).toHaveBeenCalled()
    expect(fake.themeParams!.bindCssVars).toHaveBeenCalled()
    await vi.waitFor(() => expect(fake.viewport!.expand).toHaveBeenCalled())
    expect(fake.viewport!.bindCssVars).toHaveBeenCalled()
    expect(fake.miniApp!.ready).toHaveBeenCalled()
    expect(document.documentElement.style.colorScheme).toBe('dark')
    expect(document.documentElement.dataset.colorScheme).toBe('dark')
  })

  it('follows the chat when its theme changes between light and dark', async () => {
    const fake = fakeSdk()
    await start()
    fake.themeParams!.backgroundColor!.mockReturnValue('#ffffff')
    for (const notify of fake.themeSubscribers) notify()
    expect(document.documentElement.dataset.colorScheme).toBe('light')
  })

  it('maps the haptics: notifications for success and error, a selection tick for selection', async () => {
    const fake = fakeSdk()
    const app = await start()
    app.haptic('success')
    app.haptic('error')
    app.haptic('selection')
    expect(fake.hapticFeedback!.notificationOccurred!.mock.calls).toEqual([['success'], ['error']])
    expect(fake.hapticFeedback!.selectionChanged).toHaveBeenCalledOnce()
  })

  it('shows the MainButton with its state and hides it', async () => {
    const fake = fakeSdk()
    const app = await start()
    app.setMainButton({ text: 'Confirm', enabled: false, busy: true })
    app.setMainButton(undefined)
    expect(fake.mainButton!.setParams!.mock.calls).toEqual([
      [{ text: 'Confirm', isVisible: true, isEnabled: false, isLoaderVisible: true }],
      [{ isVisible: false, isLoaderVisible: false }],
    ])
  })
})

describe('the limits, checked before the SDK is called', () => {
  it('refuses a popup over a limit and never opens it', async () => {
    const fake = fakeSdk()
    const app = await start()
    await expect(app.popup({ title: 't'.repeat(65), message: 'm' })).rejects.toBeInstanceOf(
      TelegramLimitError,
    )
    await expect(app.popup({ message: '' })).rejects.toMatchObject({ code: 'POPUP_MESSAGE_EMPTY' })
    expect(fake.popup!.open).not.toHaveBeenCalled()
  })

  it('opens a popup within the limits and answers the pressed button', async () => {
    const fake = fakeSdk()
    const app = await start()
    await expect(
      app.popup({
        title: 'Delete?',
        message: 'It cannot be undone.',
        buttons: [
          { id: 'delete', type: 'destructive', text: 'Delete' },
          { id: 'cancel', type: 'cancel' },
        ],
      }),
    ).resolves.toBe('ok')
    expect(fake.popup!.open).toHaveBeenCalledWith({
      title: 'Delete?',
      message: 'It cannot be undone.',
      buttons: [
        { id: 'delete', type: 'destructive', text: 'Delete' },
        { id: 'cancel', type: 'cancel' },
      ],
    })
  })

  it('refuses data over 4096 UTF-8 bytes and never sends it; sends what fits', async () => {
    const fake = fakeSdk()
    const app = await start()
    expect(() => app.sendData('д'.repeat(2049))).toThrow(TelegramLimitError)
    expect(() => app.sendData('')).toThrow(TelegramLimitError)
    expect(fake.sendData).not.toHaveBeenCalled()
    app.sendData('д'.repeat(2048))
    expect(fake.sendData).toHaveBeenCalledOnce()
  })
})

describe('requestContact', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers shared with the phone number', async () => {
    const fake = fakeSdk()
    fake.requestContact.mockImplementation(async () => ({
      contact: { user_id: 1, phone_number: '447700900123', first_name: 'Ada' },
    }))
    const app = await start()
    await expect(app.requestContact!()).resolves.toEqual({
      status: 'shared',
      contact: { phone: '447700900123', firstName: 'Ada', lastName: undefined },
    })
  })

  it('answers refused when the person declines', async () => {
    const fake = fakeSdk()
    fake.requestContact.mockImplementation(async () => {
      throw new Error('ACCESS_DENIED')
    })
    const app = await start()
    await expect(app.requestContact!()).resolves.toEqual({ status: 'refused' })
  })

  it('answers timeout after 5000 ms and aborts the SDK’s request', async () => {
    const fake = fakeSdk()
    const app = await start()
    const result = app.requestContact!()
    await vi.advanceTimersByTimeAsync(5000)
    await expect(result).resolves.toEqual({ status: 'timeout' })
    const [{ abortSignal }] = fake.requestContact.mock.calls[0] as [{ abortSignal: AbortSignal }]
    expect(abortSignal.aborted).toBe(true)
  })

  it('is not offered where Telegram cannot share contacts', async () => {
    const fake = fakeSdk()
    fake.requestContact.isAvailable.mockReturnValue(false)
    const app = await start()
    expect(app.requestContact).toBeUndefined()
    expect(fake.requestContact).not.toHaveBeenCalled()
  })
})

describe('downloadFile', () => {
  it('hands Telegram the link and the file name, and waits for it', async () => {
    const fake = fakeSdk()
    const app = await start()
    await app.downloadFile!('https://app.example/api/statements/files/t0ken', 'statement.pdf')
    expect(fake.downloadFile).toHaveBeenCalledWith(
      'https://app.example/api/statements/files/t0ken',
      'statement.pdf',
    )
  })

  it('is not offered on a client before Bot API 8.0', async () => {
    const fake = fakeSdk()
    fake.downloadFile.isAvailable.mockReturnValue(false)
    const app = await start()
    expect(app.downloadFile).toBeUndefined()
  })
})
