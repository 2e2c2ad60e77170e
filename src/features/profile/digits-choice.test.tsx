import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { aUser as user, someUserData as userData } from '../../../tests/support/builders.ts'
import { COUNTRIES, mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { latinDigits } from '../../i18n/digits.ts'
import type { Language } from '../../i18n/i18n.tsx'
import ProfilePage from './profile-page.tsx'

function renderProfile(language: Language) {
  mockApi({
    'GET /user': { body: user() },
    'GET /user/user-data': { body: userData() },
    'GET /location/countries': COUNTRIES,
  })
  return renderApp(<ProfilePage />, { path: '/profile', language })
}

afterEach(() => {
  latinDigits.set(false)
  localStorage.clear()
})

describe('the digits (issue 34)', () => {
  it('offers Persian or Latin digits in Persian; a choice turns every date at once and stays on this device', async () => {
    const { user: person } = renderProfile('fa')
    const group = await screen.findByRole('group', { name: 'ارقام' })
    const native = within(group).getByRole('radio', { name: '۰۱۲۳ فارسی' })
    expect(native).toBeChecked()
    expect(group).toHaveAccessibleDescription(/در این دستگاه/)
    // "Member since": the account's first day, in the reader's digits.
    const since = screen.getByText(/۱۴۰۴/)

    await person.click(within(group).getByRole('radio', { name: '0123 لاتین' }))

    expect(since).toHaveTextContent(/1404/)
    expect(since).not.toHaveTextContent(/[۰-۹]/)
    expect(localStorage.getItem('latinDigits')).toBe('1')
  })

  it.each<Language>(['en', 'ar'])(
    'offers no choice in %s, whose digits are Latin already (CLDR: "ar" alone reads 0123)',
    async (language) => {
      renderProfile(language)
      await screen.findByRole('group', { name: language === 'en' ? 'Theme' : 'السمة' })
      expect(screen.queryByRole('radio', { name: /0123/ })).not.toBeInTheDocument()
    },
  )
})
