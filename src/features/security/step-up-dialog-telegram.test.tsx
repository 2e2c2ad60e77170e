import { screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { LAUNCH_PARAMS_KEY } from '../../telegram/launch.ts'
import { MiniAppProvider } from '../../telegram/mini-app.tsx'
import type { MiniAppControls, TelegramBiometrics } from '../../telegram/sdk.ts'
import { StepUpDialog } from './step-up-dialog.tsx'

/*
 * The second look inside the Telegram Mini App (the Telegram mock): WebAuthn
 * does not exist there, so no passkey is offered; Telegram biometrics are,
 * enrolling the device on first use, and a one-time code always.
 */

const INIT_DATA = 'user=%7B%22id%22%3A7%7D&auth_date=1700000000&hash=abc'

beforeAll(() => {
  Object.assign(window, { TelegramWebviewProxy: { postEvent() {} } })
  sessionStorage.setItem(
    LAUNCH_PARAMS_KEY,
    JSON.stringify(new URLSearchParams({ tgWebAppData: INIT_DATA }).toString()),
  )
  // happy-dom's <dialog> has no modal mode: what the dialog needs of it.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
})

afterEach(() => vi.unstubAllGlobals())

/** Telegram's BiometricManager as the SDK wraps it: a token kept behind a fingerprint. */
function fakeBiometrics(options: { passes: boolean; kept?: string }) {
  let kept = options.kept
  const biometrics: TelegramBiometrics = {
    state: async () => ({ available: true, tokenSaved: kept !== undefined }),
    save: vi.fn(async (token: string) => {
      kept = token
      return true
    }),
    unlock: vi.fn(async () => (options.passes ? kept : undefined)),
  }
  return biometrics
}

function render(biometrics: TelegramBiometrics | undefined, onDone = vi.fn()) {
  const controls = {
    setBackButton: () => {},
    onBack: () => () => {},
    setMainButton: () => {},
    onMainButton: () => () => {},
    haptic: () => {},
    setClosingConfirmation: () => {},
    popup: vi.fn(),
    sendData: vi.fn(),
    biometrics,
  } satisfies MiniAppControls
  renderApp(
    <MiniAppProvider controls={controls}>
      <StepUpDialog methods={['otp']} onDone={onDone} />
    </MiniAppProvider>,
  )
  return onDone
}

const status = (methods: string[]) => ({
  body: { methods, otp_destination: 'a•••@example.com', otp_channel: 'email', fresh_until: null },
})

describe('the second look in the Mini App', () => {
  it('offers Telegram biometrics and no passkey; the first use enrols the device, then proves', async () => {
    const api = mockApi({
      'GET /user/step-up': status(['otp']),
      'POST /user/step-up/telegram-biometrics/enrol': { body: { token: 'k'.repeat(43) } },
      'POST /user/step-up/telegram-biometrics': {
        body: { method: 'telegram_biometrics', fresh_until: '2030-01-01T00:00:00Z' },
      },
    })
    const biometrics = fakeBiometrics({ passes: true })
    const onDone = render(biometrics)
    const button = await screen.findByRole('button', { name: 'Use Telegram biometrics' })
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull()
    screen.getByRole('button', { name: 'Send a code to a•••@example.com' })
    button.click()
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(true))
    expect(biometrics.save).toHaveBeenCalledWith('k'.repeat(43), 'Confirm it’s you')
    expect(api.to('POST /user/step-up/telegram-biometrics')[0]?.body).toEqual({
      token: 'k'.repeat(43),
    })
  })

  it('a token of an earlier session (or an expired one) is replaced by this session’s, then proves', async () => {
    const fresh = 'n'.repeat(43)
    const api = mockApi({
      'GET /user/step-up': status(['otp']),
      'POST /user/step-up/telegram-biometrics/enrol': { body: { token: fresh } },
      'POST /user/step-up/telegram-biometrics': (call) =>
        (call.body as { token: string }).token === fresh
          ? { body: { method: 'telegram_biometrics', fresh_until: '2030-01-01T00:00:00Z' } }
          : problem(400, 'TELEGRAM_BIOMETRICS_INVALID'),
    })
    const biometrics = fakeBiometrics({ passes: true, kept: 'o'.repeat(43) })
    const onDone = render(biometrics)
    ;(await screen.findByRole('button', { name: 'Use Telegram biometrics' })).click()
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(true))
    expect(biometrics.save).toHaveBeenCalledWith(fresh, 'Confirm it’s you')
    expect(api.to('POST /user/step-up/telegram-biometrics').map((call) => call.body)).toEqual([
      { token: 'o'.repeat(43) },
      { token: fresh },
    ])
  })

  it('a failed fingerprint proves nothing and says so; the code stays on offer', async () => {
    const api = mockApi({
      'GET /user/step-up': status(['telegram_biometrics', 'otp']),
      'POST /user/step-up/telegram-biometrics/enrol': { body: { token: 't'.repeat(43) } },
    })
    const onDone = render(fakeBiometrics({ passes: false }))
    ;(await screen.findByRole('button', { name: 'Use Telegram biometrics' })).click()
    await screen.findByText('Biometrics didn’t confirm it’s you. Try again, or get a code.')
    expect(onDone).not.toHaveBeenCalled()
    expect(api.to('POST /user/step-up/telegram-biometrics')).toHaveLength(0)
    screen.getByRole('button', { name: 'Send a code to a•••@example.com' })
  })

  it('on a client without biometrics, the code is the way', async () => {
    mockApi({ 'GET /user/step-up': status(['otp']) })
    render(undefined)
    await screen.findByRole('button', { name: 'Send a code to a•••@example.com' })
    expect(screen.queryByRole('button', { name: 'Use Telegram biometrics' })).toBeNull()
  })
})
