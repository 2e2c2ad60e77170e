import { act, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import {
  type MainButtonAction,
  TelegramBackButton,
  useClosingConfirmation,
  useHaptics,
  useMainButton,
} from './controls.tsx'
import { MiniAppProvider } from './mini-app.tsx'
import type { MainButtonState, MiniAppControls } from './sdk.ts'

/** Telegram as the hooks see it: what each control was last set to, and its listeners. */
function fakeControls() {
  const state = {
    backVisible: [] as boolean[],
    mainButton: [] as Array<MainButtonState | undefined>,
    closing: [] as boolean[],
    haptics: [] as string[],
    backListeners: new Set<() => void>(),
    mainListeners: new Set<() => void>(),
  }
  const controls: MiniAppControls = {
    setBackButton: (visible) => void state.backVisible.push(visible),
    onBack(listener) {
      state.backListeners.add(listener)
      return () => state.backListeners.delete(listener)
    },
    setMainButton: (value) => void state.mainButton.push(value),
    onMainButton(listener) {
      state.mainListeners.add(listener)
      return () => state.mainListeners.delete(listener)
    },
    haptic: (kind) => void state.haptics.push(kind),
    setClosingConfirmation: (on) => void state.closing.push(on),
    popup: vi.fn(),
    sendData: vi.fn(),
    requestContact: vi.fn(),
  }
  const press = (listeners: Set<() => void>) =>
    act(() => {
      for (const listener of listeners) listener()
    })
  return { state, controls, press }
}

function MainButtonScreen(props: { action: MainButtonAction | undefined }) {
  const carried = useMainButton(props.action)
  return <p>{carried ? 'carried' : 'not carried'}</p>
}

describe('useMainButton', () => {
  it('shows the screen’s action on the MainButton, runs it when pressed, hides it when gone', () => {
    const { state, controls, press } = fakeControls()
    const onClick = vi.fn()
    const action = { text: 'Review', enabled: true, busy: false, onClick }
    const { rerender, unmount } = render(
      <MiniAppProvider controls={controls}>
        <MainButtonScreen action={action} />
      </MiniAppProvider>,
    )
    expect(screen.getByText('carried')).toBeInTheDocument()
    expect(state.mainButton.at(-1)).toEqual({ text: 'Review', enabled: true, busy: false })
    press(state.mainListeners)
    expect(onClick).toHaveBeenCalledOnce()

    rerender(
      <MiniAppProvider controls={controls}>
        <MainButtonScreen action={{ ...action, text: 'Confirming…', enabled: false, busy: true }} />
      </MiniAppProvider>,
    )
    expect(state.mainButton.at(-1)).toEqual({ text: 'Confirming…', enabled: false, busy: true })

    rerender(
      <MiniAppProvider controls={controls}>
        <MainButtonScreen action={undefined} />
      </MiniAppProvider>,
    )
    expect(state.mainButton.at(-1)).toBeUndefined()
    expect(state.mainListeners.size).toBe(0)
    unmount()
  })

  it('presses the newest action, not the one it first saw', () => {
    const { state, controls, press } = fakeControls()
    const first = vi.fn()
    const second = vi.fn()
    const screenWith = (onClick: () => void) => (
      <MiniAppProvider controls={controls}>
        <MainButtonScreen action={{ text: 'Go', enabled: true, busy: false, onClick }} />
      </MiniAppProvider>
    )
    const { rerender } = render(screenWith(first))
    rerender(screenWith(second))
    press(state.mainListeners)
    expect(first).not.toHaveBeenCalled()
    expect(second).toHaveBeenCalledOnce()
  })

  it('does nothing in a browser', () => {
    render(
      <MainButtonScreen
        action={{ text: 'Review', enabled: true, busy: false, onClick: vi.fn() }}
      />,
    )
    expect(screen.getByText('not carried')).toBeInTheDocument()
  })
})

describe('TelegramBackButton', () => {
  afterEach(() => {
    history.replaceState(null, '', '/')
  })

  it('is shown when back stays in the app, and goes back when pressed', async () => {
    history.replaceState(null, '', '/')
    const { state, controls, press } = fakeControls()
    render(
      <MiniAppProvider controls={controls}>
        <TelegramBackButton />
      </MiniAppProvider>,
    )
    expect(state.backVisible.at(-1)).toBe(false)
    act(() => navigate('/profile'))
    expect(state.backVisible.at(-1)).toBe(true)

    const popped = new Promise((resolve) => addEventListener('popstate', resolve, { once: true }))
    press(state.backListeners)
    await act(() => popped)
    expect(location.pathname).toBe('/')
    expect(state.backVisible.at(-1)).toBe(false)
  })
})

function Placing() {
  const [placing, setPlacing] = useState(false)
  useClosingConfirmation(placing)
  const haptic = useHaptics()
  return (
    <button
      type="button"
      onClick={() => {
        haptic('selection')
        setPlacing(!placing)
      }}
    >
      toggle
    </button>
  )
}

describe('useClosingConfirmation and useHaptics', () => {
  it('asks before closing only while an order is being placed', () => {
    const { state, controls } = fakeControls()
    render(
      <MiniAppProvider controls={controls}>
        <Placing />
      </MiniAppProvider>,
    )
    expect(state.closing).toEqual([])
    act(() => screen.getByRole('button').click())
    expect(state.closing).toEqual([true])
    act(() => screen.getByRole('button').click())
    expect(state.closing).toEqual([true, false])
    expect(state.haptics).toEqual(['selection', 'selection'])
  })

  it('are harmless in a browser', () => {
    render(<Placing />)
    expect(() => act(() => screen.getByRole('button').click())).not.toThrow()
  })
})
