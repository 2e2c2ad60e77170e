import { act } from '@testing-library/react'
import { type PopupParams, validatePopup } from './limits.ts'
import type { Haptic, MainButtonState, MiniAppControls } from './sdk.ts'

/**
 * Test support: Telegram as a screen's tests see it, behind the
 * MiniAppControls of src/telegram/sdk.ts. It records what each control was
 * last set to, the haptics and the popups asked; the test presses the
 * MainButton and answers each popup when it chooses. A popup over
 * Telegram's limits is refused as the real controls refuse it.
 */
export function fakeMiniApp() {
  const state = {
    mainButton: undefined as MainButtonState | undefined,
    closing: false,
    haptics: [] as Haptic[],
    popups: [] as PopupParams[],
  }
  const mainListeners = new Set<() => void>()
  const answers: Array<{ resolve: (id: string | null) => void; reject: (e: unknown) => void }> = []
  const controls: MiniAppControls = {
    setBackButton: () => {},
    onBack: () => () => {},
    setMainButton: (value) => {
      state.mainButton = value
    },
    onMainButton(listener) {
      mainListeners.add(listener)
      return () => mainListeners.delete(listener)
    },
    haptic: (kind) => void state.haptics.push(kind),
    setClosingConfirmation: (on) => {
      state.closing = on
    },
    async popup(params) {
      validatePopup(params)
      state.popups.push(params)
      return new Promise((resolve, reject) => answers.push({ resolve, reject }))
    },
    sendData: () => {},
  }
  /** Settles the oldest popup not yet answered. */
  const settle = async (how: (answer: (typeof answers)[number]) => void) => {
    const answer = answers.shift()
    if (!answer) throw new Error('No popup is waiting for an answer.')
    await act(async () => how(answer))
  }
  return {
    state,
    controls,
    pressMain: () =>
      act(() => {
        for (const listener of mainListeners) listener()
      }),
    /** The button the person pressed, or null when they closed the popup. */
    answerPopup: (id: string | null) => settle((answer) => answer.resolve(id)),
    /** The popup refused (the SDK throws: a limit, an old client). */
    failPopup: (error: unknown) => settle((answer) => answer.reject(error)),
  }
}
