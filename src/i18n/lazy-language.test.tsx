import ru from 'virtual:catalogue/ru'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Language } from './i18n.tsx'

/*
 * The Russian catalogue is a lazy chunk, and so is each English part but the entry's. The unit setup loads every catalogue
 * up front, so each test here starts from fresh modules — English in memory,
 * Russian not — with its chunk (`virtual:catalogue/ru`) held back until the test lets it arrive.
 */

interface Chunk {
  arrive: () => void
  fail: () => void
}

async function freshI18n(): Promise<Chunk & typeof import('./i18n.tsx')> {
  let arrive = () => {}
  let fail = () => {}
  const gate = new Promise<void>((resolve, reject) => {
    arrive = resolve
    fail = () => reject(new Error('Failed to fetch dynamically imported module'))
  })
  vi.resetModules()
  vi.doMock('virtual:catalogue/ru', async () => {
    await gate
    return { default: ru }
  })
  const i18n = await import('./i18n.tsx')
  // The words these tests show ship in the English part "auth" (src/i18n/parts.ts).
  await i18n.loadMessages('auth')
  return { ...i18n, arrive: () => arrive(), fail: () => fail() }
}

/** Lets a load's promise chain, and the renders it causes, run. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

function renderSwitcher(i18n: typeof import('./i18n.tsx'), initial?: Language) {
  function Switcher() {
    const { t, language, setLanguage } = i18n.useI18n()
    return (
      <>
        <button type="button" onClick={() => setLanguage('ru')}>
          Русский
        </button>
        <button type="button" onClick={() => setLanguage('en')}>
          English
        </button>
        <p data-testid="words" data-language={language}>
          {t('auth.signIn')}
        </p>
      </>
    )
  }
  render(
    <i18n.I18nProvider initial={initial}>
      <Switcher />
    </i18n.I18nProvider>,
  )
  return { user: userEvent.setup() }
}

const words = () => screen.getByTestId('words')

beforeEach(() => {
  localStorage.clear()
  document.documentElement.lang = ''
})

afterEach(() => {
  vi.doUnmock('virtual:catalogue/ru')
  vi.restoreAllMocks()
})

describe('a language loaded on demand', () => {
  it('switching to Russian keeps English until the chunk arrives, then shows Russian', async () => {
    const i18n = await freshI18n()
    const { user } = renderSwitcher(i18n, 'en')

    await user.click(screen.getByRole('button', { name: 'Русский' }))
    await settle()
    expect(words()).toHaveTextContent('Sign in')
    expect(words()).toHaveAttribute('data-language', 'en')
    expect(document.documentElement.lang).toBe('en')
    expect(localStorage.getItem('language')).toBeNull()

    i18n.arrive()
    await settle()
    expect(words()).toHaveTextContent('Войти')
    expect(words()).toHaveAttribute('data-language', 'ru')
    expect(document.documentElement.lang).toBe('ru')
    expect(localStorage.getItem('language')).toBe('ru')
  })

  it('a chunk that fails to load keeps English, logs the failure, and a later try loads it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const i18n = await freshI18n()
    const { user } = renderSwitcher(i18n, 'en')

    await user.click(screen.getByRole('button', { name: 'Русский' }))
    i18n.fail()
    await settle()
    expect(words()).toHaveTextContent('Sign in')
    expect(words()).toHaveAttribute('data-language', 'en')
    expect(document.documentElement.lang).toBe('en')
    expect(localStorage.getItem('language')).toBeNull()
    expect(logged).toHaveBeenCalledWith('[i18n] the ru catalogue failed to load', expect.any(Error))

    // The failure is not remembered: asking again fetches the chunk again.
    vi.resetModules()
    vi.doUnmock('virtual:catalogue/ru')
    await user.click(screen.getByRole('button', { name: 'Русский' }))
    // The real chunk this time: it takes what a loaded machine takes to import, not one tick.
    await vi.waitFor(() => expect(words()).toHaveTextContent('Войти'), { timeout: 10_000 })
  })

  it('loadLanguage resolves to English when the chunk fails, never rejecting', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const i18n = await freshI18n()
    const loaded = i18n.loadLanguage('ru')
    i18n.fail()
    await expect(loaded).resolves.toBe('en')
    expect(i18n.translator('ru')('auth.signIn')).toBe('Sign in')
  })

  it('a later choice wins over a slower earlier one', async () => {
    const i18n = await freshI18n()
    const { user } = renderSwitcher(i18n, 'en')

    await user.click(screen.getByRole('button', { name: 'Русский' }))
    await user.click(screen.getByRole('button', { name: 'English' }))
    i18n.arrive()
    await settle()
    expect(words()).toHaveTextContent('Sign in')
    expect(localStorage.getItem('language')).toBe('en')
  })

  it('a provider started in Russian before its chunk arrived shows Russian once it does', async () => {
    const i18n = await freshI18n()
    renderSwitcher(i18n, 'ru')
    expect(words()).toHaveTextContent('Sign in')

    i18n.arrive()
    await settle()
    expect(words()).toHaveTextContent('Войти')
    expect(document.documentElement.lang).toBe('ru')
    // Detected, not chosen: nothing is saved.
    expect(localStorage.getItem('language')).toBeNull()
  })

  it('the app start resolves the detected language before rendering', async () => {
    localStorage.setItem('language', 'ru')
    const i18n = await freshI18n()
    const starting = i18n.loadLanguage(i18n.detectLanguage())
    i18n.arrive()
    const language = await starting
    expect(language).toBe('ru')

    renderSwitcher(i18n, language)
    // The very first render already speaks Russian: no English flash.
    expect(words()).toHaveTextContent('Войти')
    expect(document.documentElement.lang).toBe('ru')
  })
})
