/**
 * Light or dark, as the chat is — not as the OS is. A dark chat on a light
 * OS is common (and the reverse), and the status colours Telegram does not
 * send (success, the alert and banner backgrounds) must match the chat's
 * text colour, so <html> carries `data-color-scheme` for src/ui/tokens.css.
 *
 * The chat's background decides, by the rule the SDK's `themeParams.isDark`
 * uses (HSP brightness below 120); without a usable background colour the
 * OS preference stands, as it does for the tokens outside Telegram. Pure.
 */
export type ColorScheme = 'light' | 'dark'

export function colorSchemeOf(bgColor: string | undefined, osPrefersDark: boolean): ColorScheme {
  const rgb = bgColor ? parseHex(bgColor) : undefined
  if (!rgb) return osPrefersDark ? 'dark' : 'light'
  const [r, g, b] = rgb
  const brightness = Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b)
  return brightness < 120 ? 'dark' : 'light'
}

/** `#rgb` or `#rrggbb` as [r, g, b]; undefined for anything else. */
function parseHex(color: string): [number, number, number] | undefined {
  const short = /^#([\da-f])([\da-f])([\da-f])$/i.exec(color.trim())
  const long = /^#([\da-f]{2})([\da-f]{2})([\da-f]{2})$/i.exec(color.trim())
  const parts = long ? long.slice(1) : short?.slice(1).map((digit) => digit + digit)
  return parts
    ? (parts.map((part) => Number.parseInt(part, 16)) as [number, number, number])
    : undefined
}

/**
 * Marks <html> with the scheme, for the tokens and for form controls and
 * scrollbars — unless the person chose a theme on this device (src/ui/theme.ts),
 * which outranks the chat's.
 */
export function applyColorScheme(root: HTMLElement, scheme: ColorScheme): void {
  root.dataset.colorScheme = scheme
  const chosen = root.dataset.theme
  root.style.colorScheme = chosen === 'light' || chosen === 'dark' ? chosen : scheme
}

/** The OS preference, where there is a window to ask. */
export const osPrefersDark = (): boolean =>
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false
