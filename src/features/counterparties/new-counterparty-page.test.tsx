import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COUNTRIES, mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import type { Language } from '../../i18n/i18n.tsx'
import NewCounterpartyPage from './new-counterparty-page.tsx'
import { aBusiness, aCounterparty, aPage, CP_WALLET } from './test-builders.ts'

const LIST = `/counterparties/${CP_WALLET}`
const PAGE = `/wallets/${CP_WALLET}/counterparties/new`

function renderNew(routes: Record<string, Route> = {}, language: Language = 'en') {
  const api = mockApi({
    'GET /location/countries': COUNTRIES,
    [`GET ${LIST}`]: { body: aPage([]) },
    ...routes,
  })
  return {
    api,
    ...renderApp(<NewCounterpartyPage uuid={CP_WALLET} />, { path: PAGE, language }),
  }
}

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
})

describe('adding a counterparty', () => {
  it('asks only for a name and a country: contacts and an address are folded away', async () => {
    const saved = aCounterparty()
    const { api, user } = renderNew({ [`POST ${LIST}`]: { status: 201, body: saved } })
    await user.type(screen.getByLabelText('First name'), 'Ada')
    await user.type(screen.getByLabelText('Last name'), 'Lovelace')
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Country' }), 'GB')
    for (const label of ['Street and house', 'City', 'Postal code', 'Email (optional)']) {
      expect(screen.getByLabelText(label)).not.toBeVisible()
    }
    await user.click(screen.getByRole('button', { name: 'Save counterparty' }))
    await vi.waitFor(() => expect(api.to(`POST ${LIST}`)).toHaveLength(1))
    expect(api.to(`POST ${LIST}`)[0]!.body).toEqual({
      type: 'INDIVIDUAL',
      first_name: 'Ada',
      last_name: 'Lovelace',
      country: 'GB',
    })
  })

  it('saves a person with contacts and an address, then opens their page', async () => {
    const saved = aCounterparty()
    const { api, user, history } = renderNew({
      [`POST ${LIST}`]: { status: 201, body: saved },
    })
    await user.type(screen.getByLabelText('First name'), 'Ada')
    await user.type(screen.getByLabelText('Last name'), 'Lovelace')
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Country' }), 'GB')
    await user.click(screen.getByText('Contact details and address (optional)'))
    await user.type(screen.getByLabelText('Email (optional)'), 'ada@example.com')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country code' }), 'GB:44')
    await user.type(screen.getByLabelText('Phone number (optional)'), '07911 123456')
    await user.type(screen.getByLabelText('Street and house'), '12 St James’s Square')
    await user.type(screen.getByLabelText('City'), 'London')
    await user.type(screen.getByLabelText('Postal code'), 'SW1Y 4JH')
    await user.click(screen.getByRole('button', { name: 'Save counterparty' }))

    await vi.waitFor(() =>
      expect(history.at(-1)).toBe(
        `/wallets/${CP_WALLET}/counterparties/${saved.counterparty_account_id}`,
      ),
    )
    expect(api.to(`POST ${LIST}`).map((call) => call.body)).toEqual([
      {
        type: 'INDIVIDUAL',
        first_name: 'Ada',
        last_name: 'Lovelace',
        country: 'GB',
        email: 'ada@example.com',
        phone: '+447911123456',
        address: {
          country: 'GB',
          line1: '12 St James’s Square',
          line2: null,
          city: 'London',
          postal_code: 'SW1Y 4JH',
          state: null,
        },
      },
    ])
  })

  it('saves a business by its legal name, without the optional fields', async () => {
    const { api, user } = renderNew({ [`POST ${LIST}`]: { status: 201, body: aBusiness() } })
    await user.click(screen.getByRole('radio', { name: 'Business' }))
    expect(screen.queryByLabelText('First name')).toBeNull()
    await user.type(screen.getByLabelText('Legal name'), 'Acme Trading GmbH')
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Country' }), 'DE')
    await user.click(screen.getByRole('button', { name: 'Save counterparty' }))
    await vi.waitFor(() => expect(api.to(`POST ${LIST}`)).toHaveLength(1))
    expect(api.to(`POST ${LIST}`)[0]?.body).toEqual({
      type: 'BUSINESS',
      legal_name: 'Acme Trading GmbH',
      country: 'DE',
    })
  })

  it('checks a field when it is left, and everything on submit, focusing the summary', async () => {
    const { api, user } = renderNew()
    const first = screen.getByLabelText('First name')
    await user.click(first)
    await user.tab()
    expect(first).toHaveAttribute('aria-invalid', 'true')
    expect(first).toHaveAccessibleDescription('This field is required.')
    // Not yet visited: not yet judged.
    expect(screen.getByLabelText('Last name')).not.toHaveAttribute('aria-invalid')

    await user.type(screen.getByLabelText('Email (optional)'), 'ada@')
    await user.click(screen.getByRole('button', { name: 'Save counterparty' }))

    const summary = screen.getByRole('alert')
    expect(summary).toHaveFocus()
    expect(summary).toHaveTextContent('Some fields need another look:')
    expect(
      within(summary)
        .getAllByRole('button')
        .map((line) => line.textContent),
    ).toEqual([
      'First name: This field is required.',
      'Last name: This field is required.',
      'Country: Choose a country.',
      'Email (optional): Enter an email address like name@example.com.',
    ])
    expect(screen.getByLabelText('Email (optional)')).toHaveAccessibleDescription(
      'Enter an email address like name@example.com.',
    )
    // A line of the summary takes the person to its field.
    await user.click(within(summary).getByRole('button', { name: /^Last name/ }))
    expect(screen.getByLabelText('Last name')).toHaveFocus()
    expect(api.to(`POST ${LIST}`)).toEqual([])
  })

  it('puts what the server refused on the field it names, in our words', async () => {
    const { user } = renderNew({
      [`POST ${LIST}`]: problem(422, 'VALIDATION_FAILED', {
        errors: [{ field: '/body/email', message: 'must match format "email"' }],
      }),
    })
    await user.type(screen.getByLabelText('First name'), 'Ada')
    await user.type(screen.getByLabelText('Last name'), 'Lovelace')
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Country' }), 'GB')
    await user.type(screen.getByLabelText('Email (optional)'), 'ada@example.c')
    await user.click(screen.getByRole('button', { name: 'Save counterparty' }))

    const summary = await screen.findByRole('alert')
    expect(summary).toHaveFocus()
    expect(summary).toHaveTextContent('Some fields need another look.')
    expect(summary).not.toHaveTextContent('must match')
    const email = screen.getByLabelText('Email (optional)')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription('Enter an email address like name@example.com.')
    // Editing the field takes the server's verdict away until it is asked again.
    await user.type(email, 'om')
    expect(email).not.toHaveAttribute('aria-invalid')
  })

  it('asks before a link leaves what was typed behind', async () => {
    const confirm = vi.fn(() => false)
    vi.stubGlobal('confirm', confirm)
    const { user, history } = renderNew()
    await user.type(screen.getByLabelText('First name'), 'Ada')
    await user.click(screen.getByRole('link', { name: 'All counterparties' }))
    expect(confirm).toHaveBeenCalledWith('You have unsaved changes. Leave without saving them?')
    expect(history.at(-1)).toBe(PAGE)
  })

  it('cannot save offline, and says why', async () => {
    const { api, user } = renderNew()
    act(() => onlineManager.setOnline(false))
    await user.type(screen.getByLabelText('First name'), 'Ada')
    const save = screen.getByRole('button', { name: 'Save counterparty' })
    expect(save).toBeDisabled()
    expect(save).toHaveAccessibleDescription('You are offline. This needs a connection.')
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })

  it('speaks Russian', async () => {
    const { user } = renderNew({}, 'ru')
    await user.click(screen.getByRole('button', { name: 'Сохранить контрагента' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Проверьте эти поля:')
    expect(screen.getByLabelText('Имя')).toHaveAccessibleDescription('Заполните это поле.')
    expect(screen.getByRole('radio', { name: 'Компания' })).toBeInTheDocument()
  })
})
