import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'

/** The browser's offer, as Chromium fires it before the page is drawn. */
function offer() {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: Promise.resolve({ outcome: 'accepted' }),
  })
  dispatchEvent(event)
  return event
}

/** The modules fresh, as a new page load reads them: the offer and the device's mark. */
async function load() {
  vi.resetModules()
  const { install } = await import('./install-offer.ts')
  const button = await import('./install-button.tsx')
  const { I18nProvider } = await import('../i18n/i18n.tsx')
  const inApp = (node: React.ReactNode) => render(<I18nProvider initial="en">{node}</I18nProvider>)
  return { install, inApp, ...button }
}

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe('installing the app', () => {
  it('keeps the browser’s offer from the first moment, refusing the browser’s own banner', async () => {
    const { install } = await load()
    const event = offer()
    expect(event.defaultPrevented).toBe(true)
    expect(install.offer).toBe(event)
    act(() => {
      dispatchEvent(new Event('appinstalled'))
    })
    expect(install.offer).toBeUndefined()
  })

  it('is offered by the shell on one visit, then never again on this device', async () => {
    const first = await load()
    const event = offer()
    first.inApp(<first.default />)
    const button = screen.getByRole('button', { name: 'Install app' })
    expect(localStorage.getItem('installOffered')).toBe('1')
    await userEvent.setup().click(button)
    expect(event.prompt).toHaveBeenCalledOnce()
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull()
    cleanup()

    // The next visit: the browser offers again; the shell does not, Profile's button does.
    const next = await load()
    offer()
    next.inApp(<next.default />)
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull()
    next.inApp(<next.InstallButton />)
    expect(screen.getByRole('button', { name: 'Install app' })).toBeVisible()
  })
})
