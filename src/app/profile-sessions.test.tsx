import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { aUser as user, someUserData as userData } from '../../tests/support/builders.ts'
import { COUNTRIES, mockApi } from '../../tests/support/mock-api.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import { paths } from '../paths.ts'
import { ROUTES } from './routes.tsx'

/** The Profile page as the app composes it (with the security feature's sessions). */
function renderProfile(sessions: unknown[], language: 'en' | 'ru' = 'en') {
  mockApi({
    'GET /user': { body: user() },
    'GET /user/user-data': { body: userData() },
    'GET /location/countries': COUNTRIES,
    'GET /user/sessions': { body: { data: sessions, count: sessions.length } },
  })
  const profile = ROUTES.find((route) => route.path === paths.profile)!
  return renderApp(profile.page({}, true), { path: paths.profile, language })
}

const aSession = (id: number, device: string, lastSeen: string, current = false) => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  device,
  app_env: 'web',
  location: null,
  ip: '203.0.113.9',
  sign_in_method: 'password',
  new_device: false,
  created_at: '2026-11-01T10:00:00Z',
  last_seen_at: lastSeen,
  current,
})

describe('the Profile page: where you are signed in', () => {
  const sessions = [
    aSession(1, 'Firefox, Linux', '2026-11-20T10:00:00Z'),
    aSession(2, 'Safari, iPhone', '2026-11-25T10:00:00Z'),
    aSession(3, 'Chrome, macOS', '2026-11-24T10:00:00Z', true),
    aSession(4, 'Edge, Windows', '2026-11-10T10:00:00Z'),
  ]

  it('lists this device first, then the most recently active, and links to all of them', async () => {
    renderProfile(sessions)
    const section = await screen.findByRole('region', { name: 'Where you’re signed in' })
    const rows = await within(section).findAllByRole('listitem')
    expect(rows.map((row) => row.querySelector('.security-row-title')?.textContent)).toEqual([
      'Chrome, macOSThis device',
      'Safari, iPhone',
      'Firefox, Linux',
    ])
    expect(
      within(section).getByRole('link', { name: 'See all devices (4) and sign out' }),
    ).toHaveAttribute('href', '/profile/security')
  })

  it('in Russian, with a link to manage them when all are shown', async () => {
    renderProfile(sessions.slice(1, 3), 'ru')
    const section = await screen.findByRole('region', { name: 'Где выполнен вход' })
    expect(await within(section).findAllByRole('listitem')).toHaveLength(2)
    expect(within(section).getByRole('link', { name: 'Управлять устройствами' })).toBeVisible()
  })
})
