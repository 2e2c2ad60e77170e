import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { PasswordSection } from './password-section.tsx'

/*
 * Issue 26: the security screen's password — changed with the current one, or
 * set for the first time by an account that has none; the second look is the
 * API client's (a 403 asks in place), so the form only sends.
 */

const STRONG = 'Orbit-Lantern-Maple-42'
const changed = (ended: number) => ({
  body: { changed_at: '2026-11-26T10:00:00Z', sessions_ended: ended },
})

afterEach(() => vi.unstubAllGlobals())

describe('the password on the security screen', () => {
  it('changes it with the current one and says how many devices were signed out', async () => {
    const api = mockApi({
      'GET /user/password': { body: { has_password: true, changed_at: null } },
      'POST /user/password': changed(2),
    })
    const { user } = renderApp(<PasswordSection />)
    await screen.findByText('You sign in with your email and this password.')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    await user.type(screen.getByLabelText('Current password'), 'old one, long enough')
    await user.type(screen.getByLabelText('New password'), STRONG)
    await user.click(screen.getByRole('button', { name: 'Save password' }))

    await screen.findByText('Password saved. Other devices signed out: 2.')
    expect(api.to('POST /user/password')[0]?.body).toEqual({
      current_password: 'old one, long enough',
      new_password: STRONG,
    })
  })

  it('a wrong current password is said beside it', async () => {
    mockApi({
      'GET /user/password': { body: { has_password: true, changed_at: '2026-01-02T10:00:00Z' } },
      'POST /user/password': problem(400, 'CURRENT_PASSWORD_INVALID', {
        errors: [{ field: '/body/current_password', message: 'is not your password' }],
      }),
    })
    const { user } = renderApp(<PasswordSection />)
    await user.click(await screen.findByRole('button', { name: 'Change password' }))
    await user.type(screen.getByLabelText('Current password'), 'not it at all')
    await user.type(screen.getByLabelText('New password'), STRONG)
    await user.click(screen.getByRole('button', { name: 'Save password' }))
    await screen.findByText('That isn’t your current password.')
  })

  it('an account without a password sets one: no current password asked', async () => {
    const api = mockApi({
      'GET /user/password': { body: { has_password: false, changed_at: null } },
      'POST /user/password': changed(0),
    })
    const { user } = renderApp(<PasswordSection />)
    await user.click(await screen.findByRole('button', { name: 'Set a password' }))
    expect(screen.queryByLabelText('Current password')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Save password' }))
    expect(api.to('POST /user/password')).toHaveLength(0)
    await user.type(screen.getByLabelText('New password'), STRONG)
    await user.click(screen.getByRole('button', { name: 'Save password' }))
    await waitFor(() =>
      expect(api.to('POST /user/password')[0]?.body).toEqual({ new_password: STRONG }),
    )
    await screen.findByText('Password saved.')
  })

  it('reads in Russian', async () => {
    mockApi({ 'GET /user/password': { body: { has_password: false, changed_at: null } } })
    renderApp(<PasswordSection />, { language: 'ru' })
    await screen.findByRole('button', { name: 'Задать пароль' })
  })
})
