import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LOCKDOWN_ACTS, type Lockdown } from '../../../contract/lockdown.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { LockdownSection } from './lockdown-section.tsx'

const OFF: Lockdown = {
  active: false,
  started_at: null,
  lift_after: null,
  reason: null,
  via: null,
  refused: [...LOCKDOWN_ACTS],
  cards_frozen: 0,
  sessions_ended: 0,
}
const ON: Lockdown = {
  ...OFF,
  active: true,
  started_at: '2026-11-29T10:00:00Z',
  lift_after: '2026-11-29T10:10:00Z',
  via: 'app',
  cards_frozen: 2,
  sessions_ended: 1,
}

describe('“That wasn’t me” on the security screen', () => {
  it('locks at once, then says what is refused and offers to lift it', async () => {
    const api = mockApi({
      'GET /user/lockdown': { body: OFF },
      'POST /user/lockdown': { body: ON },
    })
    const { user } = renderApp(<LockdownSection />)
    await user.click(await screen.findByRole('button', { name: 'Lock my account' }))
    expect(await screen.findByText(/Your account is locked down/)).toBeVisible()
    for (const act of ['Withdrawals', 'New payout destinations', 'Changing your e-mail or phone']) {
      expect(screen.getByText(act)).toBeVisible()
    }
    expect(screen.getByRole('button', { name: 'Lift the lockdown' })).toBeEnabled()
    expect(api.to('POST /user/lockdown')).toHaveLength(1)
  })

  it('lifting too early says when it can be', async () => {
    mockApi({
      'GET /user/lockdown': { body: ON },
      'DELETE /user/lockdown': problem(409, 'LOCKDOWN_TOO_EARLY'),
    })
    const { user } = renderApp(<LockdownSection />, { language: 'ru' })
    await user.click(await screen.findByRole('button', { name: 'Снять блокировку' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Блокировку можно снять через 10 минут после начала.',
    )
  })
})
