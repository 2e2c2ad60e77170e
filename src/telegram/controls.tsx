import { useEffect, useRef } from 'react'
import { trackHistoryDepth } from './history-depth.ts'
import { useMiniApp } from './mini-app.tsx'
import type { Haptic, MainButtonState } from './sdk.ts'

/*
 * What screens do with the Mini App's controls (./mini-app.tsx holds them):
 * the MainButton, the closing confirmation, haptics, and the BackButton.
 * Apart from the context, so a browser's first download has none of it
 * (issue 16); each hook does nothing outside Telegram.
 */

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
