import { init, mockTelegramEnv, popup } from '@telegram-apps/sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { type PopupButton, type PopupParams, TelegramLimitError, validatePopup } from './limits.ts'

/*
 * The validator against the real SDK (not a mock): Telegram is played by the
 * SDK's own mockTelegramEnv, which closes each popup as soon as it is opened.
 * Whatever validatePopup accepts, popup.open must accept too; whatever the
 * SDK refuses, validatePopup must have refused first with its typed error.
 */

beforeAll(() => {
  mockTelegramEnv({
    launchParams: new URLSearchParams({
      tgWebAppData: new URLSearchParams({
        user: JSON.stringify({ id: 7, first_name: 'Ada' }),
        auth_date: '1700000000',
        signature: 'sig',
        hash: 'abc',
      }).toString(),
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'tdesktop',
      tgWebAppThemeParams: '{}',
    }),
    onEvent([name]) {
      if (name === 'web_app_open_popup') {
        setTimeout(() => window.Telegram?.WebView?.receiveEvent('popup_closed', {}))
      }
    },
  })
  init()
})

declare global {
  interface Window {
    Telegram?: { WebView?: { receiveEvent: (name: string, data?: unknown) => void } }
  }
}

const named = (text: string): PopupButton => ({ id: 'x', type: 'default', text })

const cases: Array<[string, PopupParams]> = [
  ['a title of 64 units', { title: `${'a'.repeat(62)}💸`, message: 'm' }],
  ['a title of 63 letters and an emoji', { title: `${'a'.repeat(63)}💸`, message: 'm' }],
  ['a title of 65 letters', { title: 'ж'.repeat(65), message: 'm' }],
  ['a padded title of 64', { title: ` ${'a'.repeat(64)} `, message: 'm' }],
  ['a message of 1', { message: 'я' }],
  ['a message of 256', { message: 'я'.repeat(256) }],
  ['a message of 257', { message: 'я'.repeat(257) }],
  ['a message of 200 emoji', { message: '💸'.repeat(200) }],
  ['a message of spaces', { message: '   ' }],
  ['3 buttons', { message: 'm', buttons: [named('a'), named('b'), named('c')] }],
  ['4 buttons', { message: 'm', buttons: [named('a'), named('b'), named('c'), named('d')] }],
  ['a button text of 64', { message: 'm', buttons: [named('b'.repeat(64))] }],
  ['a button text of 65', { message: 'm', buttons: [named('b'.repeat(65))] }],
  ['a button of spaces', { message: 'm', buttons: [named('  ')] }],
  ['a button id of 64', { message: 'm', buttons: [{ id: 'i'.repeat(64), type: 'ok' }] }],
  ['a button id of 65', { message: 'm', buttons: [{ id: 'i'.repeat(65), type: 'ok' }] }],
]

describe('validatePopup against the SDK’s popup.open', () => {
  it.each(cases)('agrees with the SDK on %s', async (_, params) => {
    let accepted: PopupParams | undefined
    try {
      accepted = validatePopup(params)
    } catch (error) {
      expect(error).toBeInstanceOf(TelegramLimitError)
    }
    const opened = Promise.resolve().then(() => popup.open(accepted ?? params))
    if (accepted) await expect(opened).resolves.toBeNull()
    else await expect(opened).rejects.toThrow(/Invalid|invalid/)
  })
})
