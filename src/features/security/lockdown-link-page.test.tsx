import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import LockdownLinkPage, { tokenIn } from './lockdown-link-page.tsx'

const TOKEN = 'A'.repeat(62)

function openLink(hash: string, reply: Parameters<typeof mockApi>[0][string]) {
  window.history.replaceState(null, '', `/lockdown${hash}`)
  const api = mockApi({ 'POST /lockdown/link': reply })
  return { api, ...renderApp(<LockdownLinkPage />) }
}

afterEach(() => window.history.replaceState(null, '', '/'))

describe('the security e-mail’s one-tap lockdown link', () => {
  it('reads the token from the fragment only', () => {
    expect(tokenIn(`#token=${TOKEN}`)).toBe(TOKEN)
    expect(tokenIn('#token=')).toBeUndefined()
    expect(tokenIn('')).toBeUndefined()
  })

  it('sends the token once, wipes it from the address bar, and says it is done', async () => {
    const { api } = openLink(`#token=${TOKEN}`, {
      body: {
        locked: true,
        message: 'Done: your cards are frozen and other devices are signed out.',
      },
    })
    expect(
      await screen.findByText('Done: your cards are frozen and other devices are signed out.'),
    ).toBeVisible()
    expect(api.to('POST /lockdown/link').map((call) => call.body)).toEqual([{ token: TOKEN }])
    expect(window.location.hash).toBe('')
  })

  it('a used or expired link says what to do instead, in people’s words', async () => {
    openLink(`#token=${TOKEN}`, problem(422, 'LOCKDOWN_LINK_INVALID'))
    expect(
      await screen.findByText(
        'This link no longer works. Open the app and lock your account from Sign-in and security.',
      ),
    ).toBeVisible()
  })

  it('a link without its token sends nothing', async () => {
    const { api } = openLink('', { body: {} })
    expect(await screen.findByText(/This link is incomplete/)).toBeVisible()
    expect(api.calls).toEqual([])
    // Signed out (as a link from an e-mail usually finds the device): the way on is signing in.
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/sign-in')
  })
})
