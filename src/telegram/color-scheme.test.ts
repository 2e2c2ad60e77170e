import { describe, expect, it } from 'vitest'
import { applyColorScheme, colorSchemeOf } from './color-scheme.ts'

describe('colorSchemeOf', () => {
  it.each([
    ['#17212b', 'dark'], // Telegram's night theme
    ['#000', 'dark'],
    ['#212121', 'dark'],
    ['#ffffff', 'light'], // Telegram's day theme
    ['#FFF', 'light'],
    ['#f4f4f5', 'light'],
    ['#777777', 'dark'], // brightness 119
    ['#797979', 'light'], // brightness 121
  ] as const)('takes a chat background of %s as %s, whatever the OS prefers', (bg, scheme) => {
    expect(colorSchemeOf(bg, true)).toBe(scheme)
    expect(colorSchemeOf(bg, false)).toBe(scheme)
  })

  it.each([undefined, '', 'red', '#12345', 'rgb(0, 0, 0)'])(
    'follows the OS when the background is %j',
    (bg) => {
      expect(colorSchemeOf(bg, true)).toBe('dark')
      expect(colorSchemeOf(bg, false)).toBe('light')
    },
  )
})

describe('applyColorScheme', () => {
  it('marks <html> for the tokens and for the browser’s own controls', () => {
    const root = document.createElement('html')
    applyColorScheme(root, 'dark')
    expect(root.dataset.colorScheme).toBe('dark')
    expect(root.style.colorScheme).toBe('dark')
  })

  it.each([
    ['light', 'light'],
    ['dark', 'dark'],
    ['system', 'dark'],
    [undefined, 'dark'],
  ] as const)(
    'under a theme chosen on the device (%s), the browser’s controls wear %s',
    (theme, worn) => {
      const root = document.createElement('html')
      if (theme) root.dataset.theme = theme
      applyColorScheme(root, 'dark')
      expect(root.dataset.colorScheme).toBe('dark')
      expect(root.style.colorScheme).toBe(worn)
    },
  )
})
