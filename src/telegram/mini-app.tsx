import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react'
import { trackHistoryDepth } from './history-depth.ts'
import { telegramLaunch } from './launch.ts'
import type { Haptic, MainButtonState, MiniAppControls } from './sdk.ts'

/**
 * The Mini App as React sees it: a context holding the controls of
 * src/telegram/sdk.ts (undefined outside Telegram, where every hook here
 * does nothing), and hooks for the screens. This file imports the SDK's
 * types only; the SDK itself is the lazy chunk `loadMiniApp` fetches.
 */

/**
 * Inside Telegram: marks <html> for the theme tokens, imports the SDK and
 * starts it (./start.ts). Both are chunks of their own, fetched side by side
 * and only in Telegram: a browser's first download has none of it (issue 16).
 */
export async function loadMiniApp(): Promise<MiniAppControls | undefined> {
  const launch = telegramLaunch()
  if (!launch) return undefined
  const sdk = import('./sdk.ts')
  // Handled where it is awaited (./start.ts); not an unhandled rejection meanwhile.
  sdk.catch(() => undefined)
  try {
    const { startMiniApp } = await import('./start.ts')
    return await startMiniApp(launch, sdk)
  } catch (error) {
    console.error('[telegram] the Mini App failed to start', error)
    return undefined
  }
}

const MiniAppContext = createContext<MiniAppControls | undefined>(undefined)

export function MiniAppProvider(props: {
  controls: MiniAppControls | undefined
  children: ReactNode
}) {
  return <MiniAppContext value={props.controls}>{props.children}</MiniAppContext>
}

/** The Mini App's controls, or undefined in a browser. */
export const useMiniApp = () => useContext(MiniAppContext)

/** Telegram's BackButton mirrors the app's history: shown when back stays in the app. */
export function TelegramBackButton() {
  const controls = useMiniApp()
  useEffect(() => {
    if (!controls) return
    const stopTracking = trackHistoryDepth((depth) => controls.setBackButton(depth > 0))
    const off = controls.onBack(() => history.back())
    return () => {
      stopTracking()
      off()
      controls.setBackButton(false)
    }
  }, [controls])
  return null
}

export interface MainButtonAction extends MainButtonState {
  onClick: () => void
}

/**
 * Puts a screen's primary action on Telegram's MainButton while the screen
 * shows it; hidden again when it goes. Undefined: no MainButton here.
 * Returns whether the MainButton carries it, so the screen can drop its own.
 */
export function useMainButton(action: MainButtonAction | undefined): boolean {
  const controls = useMiniApp()
  const onClick = useRef(action?.onClick)
  onClick.current = action?.onClick
  const shown = controls !== undefined && action !== undefined
  const text = action?.text
  const enabled = action?.enabled ?? false
  const busy = action?.busy ?? false

  useEffect(() => {
    if (!controls || text === undefined) return
    controls.setMainButton({ text, enabled, busy })
  }, [controls, text, enabled, busy])

  useEffect(() => {
    if (!controls || !shown) return
    const off = controls.onMainButton(() => onClick.current?.())
    return () => {
      off()
      controls.setMainButton(undefined)
    }
  }, [controls, shown])

  return shown
}

/** While `active`, closing the Mini App asks first (an order being placed). */
export function useClosingConfirmation(active: boolean): void {
  const controls = useMiniApp()
  useEffect(() => {
    if (!controls || !active) return
    controls.setClosingConfirmation(true)
    return () => controls.setClosingConfirmation(false)
  }, [controls, active])
}

/** Haptic feedback inside Telegram; nothing in a browser. */
export function useHaptics(): (kind: Haptic) => void {
  const controls = useMiniApp()
  return (kind) => controls?.haptic(kind)
}
