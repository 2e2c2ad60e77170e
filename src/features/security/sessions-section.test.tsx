import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Session, SessionCreation } from '../../../contract/security.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { Sessions } from './sessions-section.tsx'

const session = (id: number, device: string, created: SessionCreation[] = []): Session => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  device,
  app_env: 'web',
  location: '203.0.113.9',
  ip: '203.0.113.9',
  sign_in_method: 'password',
  new_device: false,
  created_at: '2026-11-01T10:00:00Z',
  last_seen_at: '2026-11-20T10:00:00Z',
  current: id === 1,
  created,
})

const THEIRS: SessionCreation[] = [
  {
    kind: 'webhook_endpoint',
    id: '10000000-0000-4000-8000-000000000001',
    name: 'https://x.example/h',
  },
  { kind: 'push_subscription', id: '10000000-0000-4000-8000-000000000002', name: null },
  { kind: 'api_key', id: '10000000-0000-4000-8000-000000000003', name: 'backdoor' },
]

function renderSessions(sessions: Session[], language: 'en' | 'ru' = 'en') {
  const api = mockApi({
    'GET /user/sessions': {
      body: { data: sessions, total: sessions.length, limit: 50, offset: 0, is_last_page: true },
    },
    'POST /user/sessions/sign-out-others': (call) => ({
      body: {
        ended: sessions.length - 1,
        removed: (call.body as { remove_created: boolean }).remove_created ? THEIRS : [],
      },
    }),
  })
  return { api, ...renderApp(<Sessions />, { language }) }
}

describe('signing the other devices out, and what they set up', () => {
  it('names what each device set up in its row, a webhook by its host', async () => {
    renderSessions([session(1, 'Chrome, macOS'), session(2, 'Firefox, Linux', THEIRS)])
    expect(
      await screen.findByText(
        'Set up: webhook x.example, notifications on an unknown device, API key “backdoor”',
      ),
    ).toBeVisible()
  })

  it('after the sign-out is confirmed, asks whether to remove them too, listing each', async () => {
    const { api, user } = renderSessions([
      session(1, 'Chrome, macOS'),
      session(2, 'Firefox, Linux', THEIRS),
    ])
    await user.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }))
    const first = screen.getByRole('dialog', { name: 'Sign out of all other devices?' })
    await user.click(within(first).getByRole('button', { name: 'Sign out of all other devices' }))
    expect(api.to('POST /user/sessions/sign-out-others')).toEqual([])

    const second = screen.getByRole('dialog', { name: 'Also remove what they set up?' })
    const items = within(second)
      .getAllByRole('listitem')
      .map((item) => item.textContent)
    expect(items).toEqual([
      'webhook https://x.example/h',
      'notifications on an unknown device',
      'API key “backdoor”',
    ])
    expect(within(second).getByText('API keys are turned off, not deleted.')).toBeVisible()
    await user.click(within(second).getByRole('button', { name: 'Sign out and remove' }))

    expect(api.to('POST /user/sessions/sign-out-others').map((call) => call.body)).toEqual([
      { remove_created: true },
    ])
    expect(
      await screen.findByText('Signed out of other devices: 1. Removed what they set up: 3.'),
    ).toBeVisible()
  })

  it('“Only sign out” keeps them; with nothing set up, nothing more is asked', async () => {
    const asked = renderSessions([
      session(1, 'Chrome, macOS'),
      session(2, 'Firefox, Linux', THEIRS),
    ])
    await asked.user.click(
      await screen.findByRole('button', { name: 'Sign out of all other devices' }),
    )
    await asked.user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Sign out of all other devices',
      }),
    )
    await asked.user.click(screen.getByRole('button', { name: 'Only sign out' }))
    expect(asked.api.to('POST /user/sessions/sign-out-others').map((call) => call.body)).toEqual([
      { remove_created: false },
    ])
    asked.unmount()

    const plain = renderSessions([session(1, 'Chrome, macOS'), session(2, 'Firefox, Linux')])
    await plain.user.click(
      await screen.findByRole('button', { name: 'Sign out of all other devices' }),
    )
    await plain.user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Sign out of all other devices',
      }),
    )
    expect(plain.api.to('POST /user/sessions/sign-out-others').map((call) => call.body)).toEqual([
      { remove_created: false },
    ])
    expect(screen.queryByRole('dialog', { name: 'Also remove what they set up?' })).toBeNull()
  })

  it('asks in Russian too', async () => {
    const { user } = renderSessions(
      [session(1, 'Chrome, macOS'), session(2, 'Firefox, Linux', THEIRS)],
      'ru',
    )
    await user.click(
      await screen.findByRole('button', { name: 'Выйти на всех других устройствах' }),
    )
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Выйти на всех других устройствах',
      }),
    )
    const second = screen.getByRole('dialog', { name: 'Удалить и то, что они добавили?' })
    expect(within(second).getByText('API-ключ «backdoor»')).toBeVisible()
    expect(within(second).getByRole('button', { name: 'Только выйти' })).toBeVisible()
  })
})
