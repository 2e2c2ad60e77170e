import { vi } from 'vitest'
import type { MainButtonState, MiniAppControls } from '../../telegram/sdk.ts'

/** Telegram's side of a money flow in a test: the MainButton, closing confirmation and haptics. */
export function telegram() {
  const state = {
    mainButton: undefined as MainButtonState | undefined,
    closing: false,
    haptics: [] as string[],
    pressMain: () => {},
  }
  const controls: MiniAppControls = {
    setBackButton: () => {},
    onBack: () => () => {},
    setMainButton: (value) => {
      state.mainButton = value
    },
    onMainButton: (listener) => {
      state.pressMain = listener
      return () => {
        state.pressMain = () => {}
      }
    },
    haptic: (kind) => void state.haptics.push(kind),
    setClosingConfirmation: (on) => {
      state.closing = on
    },
    popup: vi.fn(),
    sendData: vi.fn(),
    requestContact: vi.fn(),
  }
  return { state, controls }
}
