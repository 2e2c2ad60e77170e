/**
 * The app's theme on this device (issue 27): the system's (or, in Telegram,
 * the chat's) unless the person chose light or dark in Profile. The choice
 * lives in localStorage and on <html data-theme>, which src/ui/tokens.css
 * reads; main.tsx puts it there before the first paint.
 */
export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

/** The key main.tsx reads at start (`localStorage.theme`): keep the two in step. */
const KEY = 'theme'

export function storedTheme(): Theme {
  try {
    const stored = localStorage.getItem(KEY)
    return THEMES.find((theme) => theme === stored) ?? 'system'
  } catch {
    return 'system'
  }
}

/**
 * Wears `theme` now and remembers it for this device. Form controls and
 * scrollbars follow (color-scheme): the choice, else Telegram's chat scheme
 * (data-color-scheme, src/telegram/color-scheme.ts), else the stylesheet's.
 */
export function chooseTheme(theme: Theme): void {
  const root = document.documentElement
  root.dataset.theme = theme
  root.style.colorScheme = theme === 'system' ? (root.dataset.colorScheme ?? '') : theme
  try {
    localStorage.setItem(KEY, theme)
  } catch {
    // Storage refused (a private window's quota): the choice holds until the page closes.
  }
}
