import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Lockdown } from '../../../contract/lockdown.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import LockdownGate from './lockdown-gate.tsx'

const REFUSED: Lockdown['refused'] = [
  'withdrawals',
  'payouts',
  'api_keys',
  'webhooks',
  'contact_changes',
]
const locked: Lockdown = {
  active: true,
  started_at: '2026-11-29T10:00:00.000Z',
  lift_after: '2026-11-29T10:10:00.000Z',
  reason: null,
  via: 'push',
  refused: REFUSED,
  cards_frozen: 2,
  sessions_ended: 1,
}
const unlocked: Lockdown = {
  ...locked,
  active: false,
  started_at: null,
  lift_after: null,
  via: null,
  cards_frozen: 0,
  sessions_ended: 0,
}

describe('the lockdown banner', () => {
  it('says what is refused while locked, and “Lift” ends it', async () => {
    const api = mockApi({
      'GET /user/lockdown': { body: locked },
      'DELETE /user/lockdown': { body: unlocked },
    })
    const { user } = renderApp(<LockdownGate />)
    const banner = await screen.findByRole('region', { name: 'That wasn’t me' })
    expect(banner).toHaveTextContent(
      'Your account is locked down: withdrawals, new payout destinations, API keys, webhooks, and e-mail and phone changes are refused.',
    )
    await user.click(screen.getByRole('button', { name: 'Lift the lockdown' }))
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull())
    expect(api.to('DELETE /user/lockdown')).toHaveLength(1)
  })

  it('a lift refused too early says when, in Russian, and the banner stays', async () => {
    mockApi({
      'GET /user/lockdown': { body: locked },
      'DELETE /user/lockdown': problem(409, 'LOCKDOWN_TOO_EARLY'),
    })
    const { user } = renderApp(<LockdownGate />, { language: 'ru' })
    expect(await screen.findByRole('region')).toHaveTextContent(
      'Аккаунт заблокирован: запрещены выводы средств, новые получатели выплат, API-ключи, вебхуки и изменения e-mail и телефона.',
    )
    await user.click(screen.getByRole('button', { name: 'Снять блокировку' }))
    expect(await screen.findByRole('alert')).toBeVisible()
    expect(screen.getByRole('region')).toBeVisible()
  })

  it('shows nothing when the account is not locked down', async () => {
    const api = mockApi({ 'GET /user/lockdown': { body: unlocked } })
    const { container } = renderApp(<LockdownGate />)
    await waitFor(() => expect(api.to('GET /user/lockdown')).toHaveLength(1))
    expect(container).toBeEmptyDOMElement()
  })
})
