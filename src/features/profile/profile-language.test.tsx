import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { someUserData as userData } from '../../../tests/support/builders.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { useI18n } from '../../i18n/i18n.tsx'
import { LanguageSelect } from '../../ui/language-select.tsx'
import { useProfileLanguage } from './profile-language.ts'

/** The shell's picker and what the signed-in frame keeps: the language on the profile. */
function Shell() {
  useProfileLanguage()
  const { language } = useI18n()
  return (
    <>
      <LanguageSelect labelled />
      <output data-testid="language">{language}</output>
    </>
  )
}

function renderShell(profileLanguage: string | null, start: 'en' | 'ar' = 'en') {
  const api = mockApi({
    'GET /user/user-data': { body: userData({ language: profileLanguage as never }) },
    'PATCH /user/user-data': (call) => ({
      body: { ...userData(), ...(call.body as object) },
    }),
  })
  return { api, ...renderApp(<Shell />, { language: start }) }
}

afterEach(() => localStorage.clear())

describe('the language kept on the profile', () => {
  it('takes the profile’s language on a new device, and saves nothing back', async () => {
    const { api } = renderShell('id')
    await waitFor(() => expect(screen.getByTestId('language')).toHaveTextContent('id'))
    expect(document.documentElement.lang).toBe('id')
    expect(api.to('PATCH /user/user-data')).toEqual([])
  })

  it('leaves a profile without one alone: what the device reads is not a choice', async () => {
    const { api } = renderShell(null, 'ar')
    await screen.findByTestId('language')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.getByTestId('language')).toHaveTextContent('ar')
    expect(document.documentElement.dir).toBe('rtl')
    expect(api.to('PATCH /user/user-data')).toEqual([])
  })

  it('saves a choice made on a device whose profile has none', async () => {
    const { api, user } = renderShell(null)
    await screen.findByTestId('language')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de')
    await waitFor(() =>
      expect(api.to('PATCH /user/user-data').map((call) => call.body)).toEqual([
        { language: 'de' },
      ]),
    )
  })

  it('saves a choice made in the shell’s picker to the profile', async () => {
    const { api, user } = renderShell('en')
    await screen.findByTestId('language')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'uk')
    await waitFor(() =>
      expect(api.to('PATCH /user/user-data').map((call) => call.body)).toEqual([
        { language: 'uk' },
      ]),
    )
    expect(screen.getByRole('combobox', { name: 'Мова' })).toHaveValue('uk')
  })
})
