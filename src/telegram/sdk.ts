import {
  backButton,
  biometry,
  closingBehavior,
  downloadFile,
  hapticFeedback,
  init,
  mainButton,
  miniApp,
  parseLaunchParamsQuery,
  popup,
  requestContact,
  sendData,
  themeParams,
  viewport,
} from '@telegram-apps/sdk'
import { launchParamsForSdk } from './bridge.ts'
import { applyColorScheme, colorSchemeOf, osPrefersDark } from './color-scheme.ts'
import {
  type ContactResult,
  isOwnButton,
  type PopupParams,
  requestContactWithin,
  validatePopup,
  validateSendData,
} from './limits.ts'

/**
 * The only module that imports @telegram-apps/sdk. It is reached through a
 * dynamic `import()` (src/telegram/mini-app.tsx) and only once the launch
 * parameters said this is a Mini App, so the web entry carries none of it.
 * Everything the app asks of Telegram goes through `MiniAppControls`, with
 * the limits of src/telegram/limits.ts checked before the SDK is called.
 */

export type Haptic = 'success' | 'error' | 'warning' | 'selection'

export interface MainButtonState {
  text: string
  enabled: boolean
  /** The spinner on the button while its action runs. */
  busy: boolean
}

export interface MiniAppControls {
  setBackButton(visible: boolean): void
  onBack(listener: () => void): () => void
  /** Shows the MainButton with this state; undefined hides it. */
  setMainButton(state: MainButtonState | undefined): void
  onMainButton(listener: () => void): () => void
  haptic(kind: Haptic): void
  /** Telegram asks before closing the Mini App while this is on. */
  setClosingConfirmation(on: boolean): void
  /** @throws TelegramLimitError before anything is shown, when a limit is exceeded */
  popup(params: PopupParams): Promise<string | null>
  /** Sends data to the bot (Telegram closes the Mini App). @throws TelegramLimitError */
  sendData(data: string): void
  /**
   * The person's phone number, if they share it within 5000 ms. Missing
   * where Telegram cannot share contacts (clients before 6.9), so no screen
   * offers what would always be refused.
   */
  requestContact?: () => Promise<ContactResult>
  /**
   * Telegram biometrics (BiometricManager, Bot API 7.2): the second look of
   * issue 21 inside the Mini App, where WebAuthn does not exist. Missing on
   * clients without it.
   */
  biometrics?: TelegramBiometrics
  /**
   * Telegram saves the file at `url` (which it fetches itself, with no
   * sign-in) after asking the person (Bot API 8.0). Missing on older clients.
   */
  downloadFile?: (url: string, fileName: string) => Promise<void>
}

export interface TelegramBiometrics {
  /** Whether the device can check a fingerprint or face, and whether our token is kept. */
  state(): Promise<{ available: boolean; tokenSaved: boolean }>
  /** Keeps `token` behind the device's biometrics, asking for access first; false if refused. */
  save(token: string, reason: string): Promise<boolean>
  /** The kept token once the person passed the check; undefined when they did not. */
  unlock(reason: string): Promise<string | undefined>
}

/** The SDK's biometry component behind TelegramBiometrics: mounted on first use. */
function sdkBiometrics(): TelegramBiometrics {
  const mounted = async () => {
    if (!biometry.isMounted()) await biometry.mount(undefined)
    return biometry.state()
  }
  return {
    async state() {
      const state = await mounted()
      return { available: state.available, tokenSaved: state.tokenSaved }
    },
    async save(token, reason) {
      const state = await mounted()
      if (!state.available) return false
      if (!state.accessGranted && !(await biometry.requestAccess({ reason }))) return false
      return (await biometry.updateToken({ token, reason })) === 'updated'
    },
    async unlock(reason) {
      await mounted()
      const { status, token } = await biometry.authenticate({ reason })
      return status === 'authorized' ? token : undefined
    },
  }
}

const warn = (what: string) => (error: unknown) => console.warn(`[telegram] ${what} failed`, error)

import type { TelegramLaunch } from './launch.ts'

export function startMiniApp(launch: TelegramLaunch): MiniAppControls {
  init({
    // Our own reading of the launch, without the init data (src/telegram/bridge.ts):
    // launch data from a client before Bot API 8.0 has no `signature`, which the
    // SDK's parser would refuse, taking every button with it.
    launchParams: parseLaunchParamsQuery(launchParamsForSdk(launch)),
    // Telegram Web's custom styles arrive as an inline <style> element, which the
    // Content-Security-Policy (style-src 'self') refuses: the chat's theme
    // parameters style the app instead.
    acceptCustomStyles: false,
  })

  miniApp.mountSync.ifAvailable()
  if (themeParams.mountSync.isAvailable()) {
    themeParams.mountSync()
    themeParams.bindCssVars.ifAvailable()
  }
  // Light or dark as the chat is (not the OS), for the tokens, form controls and scrollbars.
  const scheme = () => {
    const scheme = colorSchemeOf(themeParams.backgroundColor(), osPrefersDark())
    applyColorScheme(document.documentElement, scheme)
  }
  scheme()
  themeParams.state.sub(scheme)

  if (viewport.mount.isAvailable()) {
    viewport
      .mount()
      .then(() => {
        viewport.expand.ifAvailable()
        viewport.bindCssVars.ifAvailable()
      })
      .catch(warn('viewport'))
  }
  backButton.mount.ifAvailable()
  mainButton.mount.ifAvailable()
  closingBehavior.mount.ifAvailable()
  miniApp.ready.ifAvailable()

  return {
    setBackButton(visible) {
      if (visible) backButton.show.ifAvailable()
      else backButton.hide.ifAvailable()
    },
    onBack(listener) {
      const [called, off] = backButton.onClick.ifAvailable(listener)
      return called ? off : () => {}
    },
    setMainButton(state) {
      mainButton.setParams.ifAvailable(
        state
          ? {
              text: state.text,
              isVisible: true,
              isEnabled: state.enabled,
              isLoaderVisible: state.busy,
            }
          : { isVisible: false, isLoaderVisible: false },
      )
    },
    onMainButton(listener) {
      const [called, off] = mainButton.onClick.ifAvailable(listener)
      return called ? off : () => {}
    },
    haptic(kind) {
      if (kind === 'selection') hapticFeedback.selectionChanged.ifAvailable()
      else hapticFeedback.notificationOccurred.ifAvailable(kind)
    },
    setClosingConfirmation(on) {
      if (on) closingBehavior.enableConfirmation.ifAvailable()
      else closingBehavior.disableConfirmation.ifAvailable()
    },
    async popup(params) {
      const { title, message, buttons } = validatePopup(params)
      return popup.open({
        title,
        message,
        buttons: buttons?.map((button) =>
          isOwnButton(button)
            ? { id: button.id, type: button.type }
            : { id: button.id, type: button.type ?? 'default', text: button.text },
        ),
      })
    },
    sendData(data) {
      sendData(validateSendData(data))
    },
    requestContact: requestContact.isAvailable()
      ? () =>
          requestContactWithin(async (signal) => {
            const { contact } = await requestContact({ abortSignal: signal })
            return {
              phone: contact.phone_number,
              firstName: contact.first_name,
              lastName: contact.last_name,
            }
          })
      : undefined,
    biometrics: biometry.isSupported() ? sdkBiometrics() : undefined,
    downloadFile: downloadFile.isAvailable()
      ? async (url, fileName) => {
          await downloadFile(url, fileName)
        }
      : undefined,
  }
}
