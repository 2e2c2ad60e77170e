import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '../../tests/support/mock-api.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import { currentKey, destinationOf, Navigation } from './navigation.tsx'

describe('where a path belongs in the navigation', () => {
  it.each([
    ['/', 'home', 'home'],
    ['/wallets/0190b0a4-0000-7000-8000-0000000000a1', 'home', 'home'],
    ['/wallets/w/transactions/t', 'activity', 'activity'],
    ['/wallets/w/counterparties', 'move', 'counterparties'],
    ['/wallets/w/counterparties/c', 'move', 'counterparties'],
    ['/counterparties', 'move', 'counterparties'],
    ['/cards/new', 'cards', 'cards'],
    ['/accounts/a', 'cards', 'accounts'],
    ['/exchange', 'move', 'move'],
    ['/top-up', 'move', 'move'],
    ['/orders/o', 'activity', 'activity'],
    ['/activity', 'activity', 'activity'],
    ['/verify', 'profile', 'verify'],
    ['/developer', 'profile', 'developer'],
    ['/profile', 'profile', 'profile'],
  ])('%s: the %s tab on a phone, %s on a desktop', (path, tab, item) => {
    expect(currentKey(path, false)).toBe(tab)
    expect(currentKey(path, true)).toBe(item)
  })

  it('an unknown path belongs nowhere', () => {
    expect(destinationOf('/no-such-screen')).toBeUndefined()
    expect(destinationOf('/homework')).toBeUndefined()
  })
})

/** A viewport as wide as a phone or a desktop, for the navigation's media query. */
const viewport = (desktop: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: desktop && query.includes('min-width: 1024px'),
    addEventListener: () => {},
    removeEventListener: () => {},
  }))

afterEach(() => vi.unstubAllGlobals())

describe('the navigation landmark', () => {
  it('holds the five tabs, the current one marked, and the desktop’s four more', () => {
    viewport(false)
    mockApi({})
    renderApp(<Navigation />, { path: '/accounts' })
    const nav = screen.getByRole('navigation', { name: 'Main' })
    const [tabs, more] = within(nav).getAllByRole('list', { hidden: true })
    expect(
      within(tabs!)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Cards', 'Move money', 'Activity', 'Profile'])
    expect(
      within(more!)
        .getAllByRole('link', { hidden: true })
        .map((link) => link.textContent),
    ).toEqual(['Accounts', 'Counterparties', 'Insights', 'Verify', 'Developer'])
    // happy-dom has no desktop width: the phone's tab for /accounts is Cards.
    expect(within(nav).getByRole('link', { name: 'Cards' })).toHaveAttribute('aria-current', 'page')
    expect(
      within(tabs!)
        .getAllByRole('link')
        .filter((link) => link.hasAttribute('aria-current')),
    ).toHaveLength(1)
  })

  it('marks the desktop’s own destination current there', () => {
    viewport(true)
    mockApi({})
    renderApp(<Navigation />, { path: '/accounts' })
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(within(nav).getByRole('link', { name: 'Accounts' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    expect(within(nav).getByRole('link', { name: 'Cards' })).not.toHaveAttribute('aria-current')
  })

  it('speaks Russian', () => {
    viewport(false)
    mockApi({})
    renderApp(<Navigation />, { language: 'ru' })
    const nav = screen.getByRole('navigation', { name: 'Главное меню' })
    expect(within(nav).getByRole('link', { name: 'Главная' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    expect(within(nav).getByRole('link', { name: 'Платежи' })).toHaveAttribute('href', '/move')
  })
})
