import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Destination } from '../../../contract/counterparties.ts'
import { COUNTRIES, mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import type { Language } from '../../i18n/i18n.tsx'
import CounterpartyPage from './counterparty-page.tsx'
import { aCounterparty, aDestination, aPage, CP_ID, CP_WALLET, DEST_ID } from './test-builders.ts'

const CP = `/counterparties/${CP_WALLET}/${CP_ID}`
const DESTS = `${CP}/destinations`
const CHAINS = {
  body: aPage([
    {
      id: 'ethereum',
      name: 'Ethereum',
      native_currency: 'ETH',
      address_format: 'evm',
      confirmations: 12,
    },
    { id: 'tron', name: 'Tron', native_currency: 'TRX', address_format: 'tron', confirmations: 20 },
  ]),
}
const ACH_ID = '0190b0a4-0000-7000-8000-0000000000f3'
const CRYPTO_ID = '0190b0a4-0000-7000-8000-0000000000f4'

const sepa = aDestination({ bic: 'DEUTDEFF', bank_name: 'Deutsche Bank' })
const ach = aDestination({
  counterparty_destination_id: ACH_ID,
  type: 'ACH',
  label: 'US checking',
  iban: null,
  routing_number: '021000021',
  account_number: '12345678',
  account_type: 'checking',
  display: 'ACH •••• 5678',
})
const crypto = aDestination({
  counterparty_destination_id: CRYPTO_ID,
  type: 'CRYPTO_EXTERNAL',
  iban: null,
  chain: 'ethereum',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  display: '0x5290…9EE7',
})

/**
 * The page against a small server that remembers its destinations: what is
 * added, changed or deleted is there when the list is read again.
 */
function renderPage(
  routes: Record<string, Route> = {},
  options: { destinations?: Destination[]; language?: Language } = {},
) {
  let stored = [...(options.destinations ?? [sepa])]
  const path = (id: string) => `${DESTS}/${id}`
  const byId = Object.fromEntries(
    [DEST_ID, ACH_ID, CRYPTO_ID].flatMap((id) => [
      [
        `PATCH ${path(id)}`,
        ((call) => {
          stored = stored.map((item) =>
            item.counterparty_destination_id === id ? { ...item, ...(call.body as object) } : item,
          )
          return { body: stored.find((item) => item.counterparty_destination_id === id) }
        }) satisfies Route,
      ],
      [
        `DELETE ${path(id)}`,
        (() => {
          stored = stored.filter((item) => item.counterparty_destination_id !== id)
          return { status: 204 }
        }) satisfies Route,
      ],
    ]),
  )
  const api = mockApi({
    [`GET ${CP}`]: { body: aCounterparty() },
    [`GET ${DESTS}`]: () => ({ body: aPage(stored) }),
    [`POST ${DESTS}`]: (call) => {
      const saved = aDestination(call.body as Partial<Destination>)
      stored = [...stored, saved]
      return { status: 201, body: saved }
    },
    ...byId,
    'GET /chains': CHAINS,
    'GET /location/countries': COUNTRIES,
    ...routes,
  })
  return {
    api,
    ...renderApp(<CounterpartyPage uuid={CP_WALLET} id={CP_ID} />, {
      path: `/wallets/${CP_WALLET}/counterparties/${CP_ID}`,
      language: options.language,
    }),
  }
}

/** The destination shown under its heading. */
const card = (name: string) => screen.getByRole('article', { name })

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
})

describe('a counterparty', () => {
  it('shows who they are and each destination by its rail, with a way to send', async () => {
    renderPage({}, { destinations: [sepa, ach, crypto] })
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeVisible()
    expect(screen.getByText('ada@example.com')).toBeInTheDocument()
    expect(screen.getByText('United Kingdom')).toBeInTheDocument()

    const bank = await screen.findByRole('article', { name: 'SEPA bank transfer' })
    expect(within(bank).getByText('DE89 3704 0044 0532 0130 00')).toBeInTheDocument()
    expect(within(bank).getByText('DEUTDEFF')).toBeInTheDocument()
    expect(within(bank).getByText('Deutsche Bank')).toBeInTheDocument()
    expect(within(bank).getByRole('link', { name: 'Send: SEPA bank transfer' })).toHaveAttribute(
      'href',
      `/send?wallet=${CP_WALLET}&counterparty=${CP_ID}&destination=${DEST_ID}`,
    )

    const us = card('US checking')
    expect(within(us).getByText('ACH transfer (US)')).toBeInTheDocument()
    expect(within(us).getByText('021000021')).toBeInTheDocument()
    expect(within(us).getByText('Checking')).toBeInTheDocument()
    expect(within(us).queryByText('IBAN')).toBeNull()
    // No order pays an ACH transfer yet: no "Send" that would open a form unable to pay it.
    expect(within(us).queryByRole('link', { name: /^Send/ })).toBeNull()
    expect(
      within(us).getByText(
        'Sending money this way is not available yet: for now you can pay by SEPA in euros and in crypto.',
      ),
    ).toBeInTheDocument()

    const wallet = card('Crypto address')
    expect(await within(wallet).findByText('Ethereum')).toBeInTheDocument()
    expect(within(wallet).getByText(crypto.address!)).toBeInTheDocument()
    expect(within(wallet).getByRole('link', { name: 'Send: Crypto address' })).toBeInTheDocument()
  })

  it('edits their details in place and returns focus to the button', async () => {
    const { api, user } = renderPage({
      [`PATCH ${CP}`]: (call) => ({
        body: aCounterparty({ last_name: 'Byron', name: 'Ada Byron', ...(call.body as object) }),
      }),
    })
    await user.click(await screen.findByRole('button', { name: 'Edit details' }))
    const first = screen.getByLabelText('First name')
    expect(first).toHaveFocus()
    expect(screen.queryByRole('radio')).toBeNull()
    const last = screen.getByLabelText('Last name')
    await user.clear(last)
    await user.type(last, 'Byron')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))

    expect(await screen.findByText('Changes saved.')).toBeInTheDocument()
    expect(api.to(`PATCH ${CP}`).map((call) => call.body)).toEqual([{ last_name: 'Byron' }])
    expect(screen.getByRole('heading', { level: 1, name: 'Ada Byron' })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Edit details' })).toHaveFocus()
  })

  it('says when it does not exist, with the way back, never a validation message', async () => {
    renderPage({ [`GET ${CP}`]: problem(404, 'COUNTERPARTY_NOT_FOUND') })
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This counterparty doesn’t exist' }),
    ).toBeVisible()
    expect(screen.getByRole('link', { name: 'All counterparties' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
  })
})

describe('adding a destination', () => {
  it('asks for the rail first, then only its fields, and checks the IBAN as typed', async () => {
    const { api, user } = renderPage({}, { destinations: [] })
    expect(
      await screen.findByText(
        'No destinations yet. Add a bank account or a crypto address to send money to Ada Lovelace.',
      ),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Add destination' }))
    expect(screen.getByRole('heading', { name: 'New destination' })).toHaveFocus()
    expect(screen.queryByLabelText('IBAN')).toBeNull()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'SEPA')
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveAccessibleDescription(
      'Euro transfers to banks in the SEPA area.',
    )
    expect(screen.queryByLabelText(/Routing number/)).toBeNull()
    expect(screen.getByLabelText('BIC (SWIFT code) (optional)')).toBeInTheDocument()

    const iban = screen.getByLabelText('IBAN')
    await user.type(iban, 'de89370400440532013001')
    expect(iban).toHaveValue('DE89 3704 0044 0532 0130 01')
    await user.tab()
    expect(iban).toHaveAttribute('aria-invalid', 'true')
    expect(iban).toHaveAccessibleDescription(
      'Spaces are added for you. This IBAN has a typo: its check digits do not match. Compare it with their bank details.',
    )
    await user.type(iban, '{Backspace}0')
    expect(iban).toHaveValue('DE89 3704 0044 0532 0130 00')
    expect(iban).not.toHaveAttribute('aria-invalid')

    await user.click(screen.getByRole('button', { name: 'Add destination' }))
    expect(await screen.findByText('Destination added.')).toBeInTheDocument()
    expect(api.to(`POST ${DESTS}`).map((call) => call.body)).toEqual([
      { type: 'SEPA', iban: 'DE89370400440532013000' },
    ])
    expect(await screen.findByRole('article', { name: 'SEPA bank transfer' })).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add destination' })).toHaveFocus(),
    )
  })

  it('checks each rail by its own rules before anything is sent', async () => {
    const { api, user } = renderPage({}, { destinations: [] })
    await user.click(await screen.findByRole('button', { name: 'Add destination' }))
    await user.click(screen.getByRole('button', { name: 'Add destination' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Type: Choose how they are paid.')

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'ACH')
    await user.type(screen.getByLabelText('Routing number (ABA)'), '021000022')
    await user.type(screen.getByLabelText('Account number'), '12')
    await user.click(screen.getByRole('button', { name: 'Add destination' }))
    const summary = screen.getByRole('alert')
    expect(summary).toHaveFocus()
    expect(
      within(summary)
        .getAllByRole('button')
        .map((line) => line.textContent),
    ).toEqual([
      'Routing number (ABA): This routing number has a typo: its digits do not add up. Check it with their bank.',
      'Account number: Enter the account number: 4 to 17 digits.',
      'Account type: This field is required.',
    ])

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'CRYPTO_EXTERNAL')
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Network' }), 'ethereum')
    await user.type(screen.getByLabelText('Address'), 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW')
    await user.tab()
    expect(screen.getByLabelText('Address')).toHaveAccessibleDescription(
      'This does not look like an address on the chosen network.',
    )
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })

  it("puts the server's refusal on the field it names", async () => {
    const { user } = renderPage(
      {
        [`POST ${DESTS}`]: problem(422, 'DESTINATION_INVALID', {
          errors: [{ field: '/body/iban', message: 'IBAN: check digits do not match' }],
        }),
      },
      { destinations: [] },
    )
    await user.click(await screen.findByRole('button', { name: 'Add destination' }))
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'SEPA')
    // Its check digits match (mod 97); the server knows a German IBAN has 22 characters, not 21.
    await user.type(screen.getByLabelText('IBAN'), 'DE5137040044053201300')
    expect(screen.getByLabelText('IBAN')).not.toHaveAttribute('aria-invalid')
    await user.click(screen.getByRole('button', { name: 'Add destination' }))

    const summary = await screen.findByRole('alert')
    await waitFor(() => expect(summary).toHaveFocus())
    expect(summary).toHaveTextContent(
      'IBAN: This IBAN is not valid. Compare it with their bank details.',
    )
    expect(summary).not.toHaveTextContent('check digits do not match')
    expect(screen.getByLabelText('IBAN')).toHaveAttribute('aria-invalid', 'true')
  })
})

describe('editing a destination', () => {
  it('keeps the rail and sends only what changed', async () => {
    const { api, user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Edit: SEPA bank transfer' }))
    expect(screen.queryByRole('combobox', { name: 'Type' })).toBeNull()
    expect(screen.getByText('SEPA bank transfer', { selector: 'p' })).toBeInTheDocument()
    expect(screen.getByLabelText('IBAN')).toHaveValue('DE89 3704 0044 0532 0130 00')
    await user.type(screen.getByLabelText('Name for this destination (optional)'), 'Main account')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))

    expect(await screen.findByText('Destination saved.')).toBeInTheDocument()
    expect(api.to(`PATCH ${DESTS}/${DEST_ID}`).map((call) => call.body)).toEqual([
      { label: 'Main account' },
    ])
    expect(await screen.findByRole('article', { name: 'Main account' })).toBeInTheDocument()
  })

  it('says that only the name can change while an order pays to it', async () => {
    const { user } = renderPage({
      [`PATCH ${DESTS}/${DEST_ID}`]: problem(409, 'DESTINATION_IN_USE'),
    })
    await user.click(await screen.findByRole('button', { name: 'Edit: SEPA bank transfer' }))
    await user.type(screen.getByLabelText('Bank name (optional)'), ' AG')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(
      'An order to this destination is still in progress. Until it ends, only the name can change.',
    )
    await waitFor(() => expect(alert).toHaveFocus())
  })
})

describe('deleting a destination', () => {
  it('asks first; Escape cancels and focus goes back', async () => {
    const { api, user } = renderPage()
    const remove = await screen.findByRole('button', { name: 'Delete: SEPA bank transfer' })
    await user.click(remove)
    const dialog = screen.getByRole('dialog', { name: 'Delete this destination?' })
    expect(dialog).toHaveAccessibleDescription(
      'SEPA bank transfer (DE89 … 3000) will be removed from Ada Lovelace. Payments already made are not affected.',
    )
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('button', { name: 'Delete: SEPA bank transfer' })).toHaveFocus()
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([])
  })

  it('deletes once confirmed', async () => {
    const { api, user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Delete: SEPA bank transfer' }))
    const dialog = screen.getByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Destination deleted.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.queryByRole('article', { name: 'SEPA bank transfer' })).toBeNull()
    expect(api.to(`DELETE ${DESTS}/${DEST_ID}`)).toHaveLength(1)
    expect(screen.getByRole('heading', { name: 'Destinations' })).toHaveFocus()
  })

  it('explains that a pending order still uses it', async () => {
    const { user } = renderPage({
      [`DELETE ${DESTS}/${DEST_ID}`]: problem(409, 'DESTINATION_IN_USE'),
    })
    await user.click(await screen.findByRole('button', { name: 'Delete: SEPA bank transfer' }))
    const dialog = screen.getByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'An order to this destination is still in progress. You can delete it once the order is complete or canceled.',
    )
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    expect(screen.getByRole('article', { name: 'SEPA bank transfer' })).toBeInTheDocument()
  })
})

describe('offline', () => {
  it('shows what is stored and disables every change, saying why', async () => {
    renderPage()
    await screen.findByRole('article', { name: 'SEPA bank transfer' })
    act(() => onlineManager.setOnline(false))
    for (const name of [
      'Edit details',
      'Add destination',
      'Edit: SEPA bank transfer',
      'Delete: SEPA bank transfer',
    ]) {
      const button = screen.getByRole('button', { name })
      expect(button).toBeDisabled()
      expect(button).toHaveAccessibleDescription('You are offline. This needs a connection.')
    }
  })
})

it('speaks Russian', async () => {
  renderPage({}, { language: 'ru' })
  const bank = await screen.findByRole('article', { name: 'Банковский перевод SEPA' })
  expect(
    within(bank).getByRole('link', { name: 'Отправить: Банковский перевод SEPA' }),
  ).toBeVisible()
  expect(screen.getByRole('heading', { name: 'Реквизиты' })).toBeVisible()
  expect(screen.getByText('Великобритания')).toBeInTheDocument()
})
