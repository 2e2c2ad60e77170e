import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser as user, someUserData as userData } from '../../../tests/support/builders.ts'
import {
  COUNTRIES,
  mockApi,
  otpSent,
  problem,
  type Route,
} from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import ProfilePage from './profile-page.tsx'

function renderProfile(routes: Record<string, Route> = {}, language: 'en' | 'ru' = 'en') {
  const api = mockApi({
    'GET /user': { body: user() },
    'GET /user/user-data': { body: userData() },
    'GET /location/countries': COUNTRIES,
    ...routes,
  })
  return { api, ...renderApp(<ProfilePage />, { path: '/profile', language }) }
}

/** A tenant configuration that takes customers from these countries only. */
const servingOnly = (countries: string[]) => ({
  products: { crypto: true, fiat: true, cards: true, exchange: true, p2p: true },
  supported_countries: countries,
})

/** The country codes the address's country field offers, sorted. */
const countryOptions = () =>
  within(screen.getByRole('combobox', { name: 'Country' }))
    .getAllByRole('option')
    .map((option) => option.getAttribute('value'))
    .filter(Boolean)
    .sort()

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('finding you', () => {
  it('switches whether people may find the person, saved at once, and says what it means', async () => {
    const { api, user } = renderProfile({
      'PATCH /user/user-data': (call) => ({ body: { ...userData(), ...(call.body as object) } }),
    })
    const box = await screen.findByRole('checkbox', {
      name: 'Let people find me by e-mail, phone or Telegram username',
    })
    expect(box).not.toBeChecked()
    expect(screen.getByText(/Nobody can tell you have an account here/)).toBeInTheDocument()

    await user.click(box)

    await waitFor(() => expect(box).toBeChecked())
    expect(api.to('PATCH /user/user-data').map((call) => call.body)).toEqual([
      { people_discoverable: true },
    ])
    expect(screen.getByText(/their payments reach you at once/)).toBeInTheDocument()
  })
})

describe('personal details', () => {
  it('sends only the fields that changed and says it saved', async () => {
    const { api, user } = renderProfile({
      'PATCH /user/user-data': (call) => ({ body: { ...userData(), ...(call.body as object) } }),
    })
    const first = await screen.findByLabelText('First name')
    await user.clear(first)
    await user.type(first, 'Augusta')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))

    expect(await screen.findByRole('status')).toHaveTextContent('Your details are saved.')
    expect(api.to('PATCH /user/user-data').map((call) => call.body)).toEqual([
      { first_name: 'Augusta' },
    ])
    expect(screen.getByLabelText('First name')).toHaveValue('Augusta')
  })

  it('shows each field the server refused at that field', async () => {
    const { user } = renderProfile({
      'PATCH /user/user-data': problem(422, 'VALIDATION_FAILED', {
        errors: [
          { field: '/body/date_of_birth', message: 'must be at least 18 years ago' },
          { field: '/body/address/country', message: 'unknown country' },
        ],
      }),
    })
    const birth = await screen.findByLabelText('Date of birth')
    await user.clear(birth)
    await user.type(birth, '2020-01-01')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'DE')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Some fields need another look.')
    expect(alert).toHaveFocus()
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription(
      'Enter your real date of birth. You need to be at least 18.',
    )
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveAccessibleDescription(
      'Choose a country from the list.',
    )
    expect(screen.getByLabelText('First name')).not.toHaveAttribute('aria-invalid')
  })

  it('offers only the countries the tenant serves', async () => {
    renderProfile({ 'GET /tenants/config': { body: servingOnly(['DE', 'GB']) } })
    await waitFor(() => expect(countryOptions()).toEqual(['DE', 'GB']))
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('GB')
  })

  it('keeps a saved country the tenant no longer serves, and sends it back untouched', async () => {
    const { api, user } = renderProfile({
      'GET /tenants/config': { body: servingOnly(['DE', 'GB']) },
      'GET /user/user-data': {
        body: userData({
          address: { country: 'RU', city: 'Kazan', line1: '1 Bauman St', postal_code: '420111' },
        }),
      },
      'PATCH /user/user-data': (call) => ({ body: { ...userData(), ...(call.body as object) } }),
    })
    await waitFor(() => expect(countryOptions()).toEqual(['DE', 'GB', 'RU']))
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('RU')
    const first = screen.getByLabelText('First name')
    await user.clear(first)
    await user.type(first, 'Augusta')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Your details are saved.')
    expect(api.to('PATCH /user/user-data').map((call) => call.body)).toEqual([
      { first_name: 'Augusta' },
    ])
  })

  it('offers every country when the tenant lists none', async () => {
    renderProfile({ 'GET /tenants/config': { body: servingOnly([]) } })
    await waitFor(() => expect(countryOptions()).toEqual(['DE', 'GB', 'RU', 'US']))
  })

  it('switches the app to the language it saves', async () => {
    const { api, user } = renderProfile({
      'PATCH /user/user-data': { body: userData({ language: 'ru' }) },
    })
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'ru')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByRole('button', { name: 'Сохранить изменения' })).toBeInTheDocument()
    expect(api.to('PATCH /user/user-data')[0]?.body).toEqual({ language: 'ru' })
  })

  it('asks before a link leaves unsaved changes behind', async () => {
    const confirm = vi.fn(() => false)
    vi.stubGlobal('confirm', confirm)
    const { user } = renderProfile()
    await user.type(await screen.findByLabelText('City'), ' upon Thames')
    const link = screen.getByRole('link', { name: 'Sign out' })
    await user.click(link)
    expect(confirm).toHaveBeenCalledWith('You have unsaved changes. Leave without saving them?')
  })
})

describe('identity verification', () => {
  it('shows the status in words and leads to the verification page', async () => {
    renderProfile()
    const link = await screen.findByRole('link', { name: /^Verify your identity/ })
    expect(link).toHaveAttribute('href', '/verify')
    expect(link).toHaveTextContent('Not verified')
  })

  it('once verified, says so once and still leads to the details', async () => {
    renderProfile({ 'GET /user': { body: user({ kyc_status: 'APPROVED' }) } })
    const link = await screen.findByRole('link', { name: /^Identity verified/ })
    expect(link).toHaveAttribute('href', '/verify')
    expect(screen.queryByRole('link', { name: /^Verify your identity/ })).toBeNull()
    expect(screen.getAllByText(/verified/i)).toHaveLength(1)
  })

  it('holds what lives under the Profile tab on a phone: accounts, counterparties, API keys', async () => {
    renderProfile()
    const more = await screen.findByRole('navigation', { name: 'Your account' })
    expect(within(more).getByRole('link', { name: /^Developers/ })).toHaveAttribute(
      'href',
      '/developer',
    )
    expect(within(more).getByRole('link', { name: /^Accounts/ })).toHaveAttribute(
      'href',
      '/accounts',
    )
    expect(within(more).getByRole('link', { name: /^Counterparties/ })).toHaveAttribute(
      'href',
      '/counterparties',
    )
  })
})

describe('changing a contact', () => {
  it('changes the e-mail in two steps and shows the new one', async () => {
    let current = user()
    const { api, user: person } = renderProfile({
      'GET /user': () => ({ body: current }),
      'PATCH /user/email': otpSent({ destination: 'g•••@example.com' }),
      'POST /user/email': (call) => {
        current = user({ email: (call.body as { email: string }).email })
        return { body: current }
      },
    })
    await person.click(await screen.findByRole('button', { name: 'Change email' }))
    const field = screen.getByLabelText('New email')
    expect(field).toHaveFocus()
    await person.type(field, 'grace@example.com')
    await person.click(screen.getByRole('button', { name: 'Send code' }))

    const code = await screen.findByLabelText('6-digit code')
    expect(code).toHaveFocus()
    expect(api.to('PATCH /user/email')[0]?.body).toEqual({ email: 'grace@example.com' })
    await person.type(code, '123456')

    expect(await screen.findByText('Your email is changed.')).toBeInTheDocument()
    expect(screen.getByTestId('profile-email')).toHaveTextContent('grace@example.com')
    expect(api.to('POST /user/email')[0]?.body).toEqual({
      email: 'grace@example.com',
      token: '123456',
    })
  })

  it('says so when the new e-mail belongs to someone else', async () => {
    const { user: person } = renderProfile({ 'PATCH /user/email': problem(409, 'EMAIL_TAKEN') })
    await person.click(await screen.findByRole('button', { name: 'Change email' }))
    await person.type(screen.getByLabelText('New email'), 'taken@example.com')
    await person.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This email already belongs to another account.',
    )
    expect(screen.queryByLabelText('6-digit code')).toBeNull()
  })

  it('changes the phone through the country picker', async () => {
    let current = user()
    const { api, user: person } = renderProfile({
      'GET /user': () => ({ body: current }),
      'PATCH /user/phone': otpSent({ channel: 'sms', destination: '•••••••6789' }),
      'POST /user/phone': () => {
        current = user({ phone: '79123456789' })
        return { body: current }
      },
    })
    await person.click(await screen.findByRole('button', { name: 'Change phone number' }))
    const contacts = screen.getByRole('region', { name: 'Contacts' })
    await person.selectOptions(
      within(contacts).getByRole('combobox', { name: 'Country code' }),
      'RU:7',
    )
    await person.type(within(contacts).getByLabelText('New phone number'), '8 912 345-67-89')
    await person.click(within(contacts).getByRole('button', { name: 'Send code' }))
    await person.type(await screen.findByLabelText('6-digit code'), '123456')

    expect(await screen.findByText('Your phone number is changed.')).toBeInTheDocument()
    expect(api.to('PATCH /user/phone')[0]?.body).toEqual({ phone: '+79123456789' })
    await waitFor(() =>
      expect(screen.getByTestId('profile-phone')).toHaveTextContent('+79123456789'),
    )
  })

  it('refuses the number it already has without asking the server', async () => {
    const { api, user: person } = renderProfile()
    await person.click(await screen.findByRole('button', { name: 'Change phone number' }))
    await person.selectOptions(screen.getByRole('combobox', { name: 'Country code' }), 'US:1')
    await person.type(screen.getByLabelText('New phone number'), '(415) 555-2671')
    await person.click(screen.getByRole('button', { name: 'Send code' }))
    expect(screen.getByLabelText('New phone number')).toHaveAccessibleDescription(
      expect.stringContaining('This is already yours.'),
    )
    expect(api.to('PATCH /user/phone')).toEqual([])
  })
})

describe('the profile offline', () => {
  afterEach(() => {
    act(() => onlineManager.setOnline(true))
  })

  it('keeps showing the details, but Save is disabled with the reason', async () => {
    const { api, user } = renderProfile()
    const first = await screen.findByLabelText('First name')
    act(() => onlineManager.setOnline(false))
    await user.clear(first)
    await user.type(first, 'Augusta{Enter}')

    const save = screen.getByRole('button', { name: 'Save changes' })
    expect(save).toBeDisabled()
    expect(save).toHaveAccessibleDescription('You are offline. This needs a connection.')
    expect(api.to('PATCH /user/user-data')).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Change email' }))
    expect(screen.getByRole('button', { name: 'Send code' })).toBeDisabled()
  })

  it('says a screen never loaded here will load once back online, instead of spinning', async () => {
    mockApi({})
    act(() => onlineManager.setOnline(false))
    renderApp(<ProfilePage />, { path: '/profile' })
    expect(
      await screen.findByText(/You are offline, and this is not saved on this device yet/),
    ).toBeVisible()
  })
})

describe('the theme', () => {
  afterEach(() => {
    delete document.documentElement.dataset.theme
    delete document.documentElement.dataset.colorScheme
    document.documentElement.style.colorScheme = ''
  })

  it('is the system’s until chosen; a choice is worn at once and kept on this device', async () => {
    const { user: person } = renderProfile()
    const group = await screen.findByRole('group', { name: 'Theme' })
    expect(within(group).getByRole('radio', { name: 'System' })).toBeChecked()
    expect(group).toHaveAccessibleDescription(/follows your device’s setting/)
    await person.click(within(group).getByRole('radio', { name: 'Dark' }))
    expect(document.documentElement.dataset.theme).toBe('dark')
    expect(document.documentElement.style.colorScheme).toBe('dark')
    expect(localStorage.getItem('theme')).toBe('dark')
    cleanup()
    renderProfile()
    expect(await screen.findByRole('radio', { name: 'Dark' })).toBeChecked()
  })

  it('back on System, a chat’s own scheme (Telegram) is worn again', async () => {
    document.documentElement.dataset.colorScheme = 'dark'
    localStorage.setItem('theme', 'light')
    const { user: person } = renderProfile()
    await person.click(await screen.findByRole('radio', { name: 'System' }))
    expect(document.documentElement.dataset.theme).toBe('system')
    expect(document.documentElement.style.colorScheme).toBe('dark')
  })
})
