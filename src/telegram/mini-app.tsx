import { createContext, type ReactNode, useContext } from 'react'
import { telegramLaunch } from './launch.ts'
import type { MiniAppControls } from './sdk.ts'

/**
 * The Mini App as React sees it: a context holding the controls of
 * src/telegram/sdk.ts (undefined outside Telegram, where every hook here
 * does nothing); the screens' hooks and the BackButton are in ./controls.tsx,
 * out of the first download. This file imports the SDK's types only; the SDK
 * itself is the lazy chunk `loadMiniApp` fetches.
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
