import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Counterparty, Destination } from '../../../contract/counterparties.ts'
import {
  aBalance,
  aCurrency,
  anOrder,
  aPage,
  aQuote,
  aWallet,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import SendPage from './send-page.tsx'
import { EUR, EUR_UUID } from './test-fixtures.ts'

const USDT = aCurrency()
const ANNA = '0190b0a4-0000-7000-8000-00000000cc01'
const BOB = '0190b0a4-0000-7000-8000-00000000cc02'

const counterparty = (id: string, name: string, count: number): Counterparty => ({
  counterparty_account_id: id,
  wallet_id: WALLET_UUID,
  type: 'INDIVIDUAL',
  name,
  first_name: name,
  last_name: null,
  legal_name: null,
  email: null,
  phone: null,
  country: 'DE',
  address: null,
  destinations_count: count,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
})

const destination = (overrides: Partial<Destination>): Destination => ({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd01',
  counterparty_account_id: ANNA,
  type: 'SEPA',
  label: null,
  iban: 'DE89370400440532013000',
  bic: null,
  account_number: null,
  routing_number: null,
  account_type: null,
  bank_name: null,
  bank_country: null,
  chain: null,
  address: null,
  wallet_uuid: null,
  display: 'DE89 … 3000',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
})

const SEPA = destination({ label: 'Main account' })
const TRON = destination({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd02',
  type: 'CRYPTO_EXTERNAL',
  iban: null,
  chain: 'tron',
  address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
  display: 'TJCn…sxMW',
})
const ACH = destination({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd03',
  type: 'ACH',
  iban: null,
  display: '•••• 6789',
})
const BOB_SEPA = destination({
  counterparty_destination_id: '0190b0a4-0000-7000-8000-00000000dd04',
  counterparty_account_id: BOB,
  display: 'FR76 … 0189',
})

const eurQuote = aQuote({
  order_type: 'WITHDRAWAL_FIAT_SEPA',
  from: { currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2, amount: '50' },
  to: { currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2, amount: '50' },
  rate: '1.00',
  fees: [{ kind: 'FIXED', currency_uuid: EUR_UUID, currency: 'EUR', amount: '1', percent: null }],
  total: '51',
})

const P2P_UUID = '0190b0a4-0000-7000-8000-0000000000a2'

function renderSend(search: string, routes: Record<string, Route> = {}) {
  const api = mockApi({
    'GET /wallets': {
      body: aPage([
        aWallet({
          balances: [
            aBalance({
              currency_uuid: EUR_UUID,
              currency: 'EUR',
              chain: null,
              decimals: 2,
              available: '300',
            }),
            aBalance({
              currency_uuid: USDT_UUID,
              currency: 'USDT',
              chain: 'tron',
              decimals: 6,
              available: '80',
            }),
          ],
        }),
        aWallet({
          uuid: P2P_UUID,
          type: 'trading',
          balances: [
            aBalance({
              currency_uuid: USDT_UUID,
              currency: 'USDT',
              chain: 'tron',
              decimals: 6,
              available: '5',
            }),
          ],
        }),
      ]),
    },
    [`GET /counterparties/${P2P_UUID}`]: { body: aPage([]) },
    'GET /currencies': { body: aPage([USDT, EUR]) },
    'GET /chains': {
      body: aPage([
        {
          id: 'tron',
          name: 'Tron',
          native_currency: 'TRX',
          address_format: 'tron',
          confirmations: 20,
        },
      ]),
    },
    [`GET /counterparties/${WALLET_UUID}`]: {
      body: aPage([counterparty(ANNA, 'Anna Schmidt', 3), counterparty(BOB, 'Bob Martin', 1)]),
    },
    [`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`]: { body: aPage([SEPA, TRON, ACH]) },
    [`GET /counterparties/${WALLET_UUID}/${BOB}/destinations`]: { body: aPage([BOB_SEPA]) },
    'GET /orders/calc': { body: eurQuote },
    'POST /orders/WITHDRAWAL_FIAT_SEPA': {
      status: 201,
      body: anOrder({ order_type: 'WITHDRAWAL_FIAT_SEPA' }),
    },
    [`GET /orders/${anOrder().id}`]: { body: anOrder({ order_type: 'WITHDRAWAL_FIAT_SEPA' }) },
    ...routes,
  })
  return { api, ...renderApp(<SendPage />, { path: `/send?wallet=${WALLET_UUID}${search}` }) }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('sending to a saved recipient', () => {
  it('offers only the destinations that can take the currency, and sends by SEPA with a note', async () => {
    const { api, user } = renderSend(`&currency=${EUR_UUID}`)
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Recipient' }),
      'Anna Schmidt',
    )
    const where = await screen.findByRole('combobox', { name: 'Account or address' })
    expect([...(where as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Choose where to send',
      'Main account · DE89 … 3000',
    ])
    await user.selectOptions(where, 'Main account · DE89 … 3000')
    await user.type(screen.getByRole('textbox', { name: 'You send (EUR)' }), '50')
    await user.type(screen.getByRole('textbox', { name: 'Note (optional)' }), 'Rent March')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())

    expect(Object.fromEntries(api.to('GET /orders/calc').at(-1)!.query)).toEqual({
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      wallet_uuid: WALLET_UUID,
      from_uuid: EUR_UUID,
      destination_id: SEPA.counterparty_destination_id,
      amount_from: '50',
    })
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(await screen.findByText('Rent March')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: 'Transfer placed' })
    expect(api.to('POST /orders/WITHDRAWAL_FIAT_SEPA')[0]!.body).toMatchObject({
      note: 'Rent March',
    })
  })

  it('starts from the destination a link names', async () => {
    renderSend(`&destination=${BOB_SEPA.counterparty_destination_id}`)
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Recipient' })).toHaveDisplayValue('Bob Martin'),
    )
    expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveDisplayValue(/^EUR/)
    expect(await screen.findByRole('combobox', { name: 'Account or address' })).toHaveDisplayValue(
      'FR76 … 0189',
    )
  })

  it('says when there is nobody to pay yet, and where to add them', async () => {
    renderSend('', { [`GET /counterparties/${WALLET_UUID}`]: { body: aPage([]) } })
    expect(await screen.findByText('You have no saved recipients yet.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add or edit recipients' })).toHaveAttribute(
      'href',
      `/wallets/${WALLET_UUID}/counterparties`,
    )
  })
})

describe('sending crypto to a new address', () => {
  it('quotes a crypto withdrawal to the typed address on the currency’s chain', async () => {
    const { api, user } = renderSend(`&currency=${USDT_UUID}`, {
      'GET /orders/calc': { body: aQuote({ order_type: 'WITHDRAWAL_CRYPTO' }) },
    })
    await user.click(await screen.findByRole('radio', { name: 'A new address' }))
    const address = screen.getByRole('textbox', { name: 'Address' })
    expect(address).toHaveAccessibleDescription(expect.stringContaining('An address on Tron.'))
    await user.type(address, 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW')
    await user.type(screen.getByRole('textbox', { name: 'You send (USDT)' }), '25')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))
    expect(Object.fromEntries(api.to('GET /orders/calc')[0]!.query)).toEqual({
      order_type: 'WITHDRAWAL_CRYPTO',
      wallet_uuid: WALLET_UUID,
      from_uuid: USDT_UUID,
      address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
      amount_from: '25',
    })
  })

  it('offers a new address only for crypto', async () => {
    renderSend(`&currency=${EUR_UUID}`)
    await screen.findByRole('combobox', { name: 'Recipient' })
    expect(screen.queryByRole('radio', { name: 'A new address' })).toBeNull()
  })
})

describe('what the form pays', () => {
  it('starts over with another wallet: nothing of the last wallet’s recipient is sent', async () => {
    const { api, user } = renderSend(`&currency=${EUR_UUID}`)
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Recipient' }),
      'Anna Schmidt',
    )
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Account or address' }),
      'Main account · DE89 … 3000',
    )
    await user.type(screen.getByRole('textbox', { name: 'You send (EUR)' }), '10')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))

    const walletField = screen.getByRole('combobox', { name: 'Wallet' })
    await user.selectOptions(walletField, 'P2P wallet')
    expect(await screen.findByText('You have no saved recipients yet.')).toBeInTheDocument()
    // The form is new, its wallet picker keeps the focus.
    expect(screen.getByRole('combobox', { name: 'Wallet' })).toHaveFocus()
    expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveDisplayValue(/^USDT/)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(api.to('GET /orders/calc')).toHaveLength(1)
    expect(api.calls.filter((call) => call.path.includes(`${P2P_UUID}/${ANNA}`))).toEqual([])
  })

  it('never pays a destination it does not show: a linked ACH account is not sent', async () => {
    const { api, user } = renderSend(
      `&counterparty=${ANNA}&destination=${ACH.counterparty_destination_id}`,
    )
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Recipient' })).toHaveDisplayValue(
        'Anna Schmidt',
      ),
    )
    const where = await screen.findByRole('combobox', { name: 'Account or address' })
    expect(where).toHaveDisplayValue('Choose where to send')
    await user.type(screen.getByRole('textbox', { name: /^You send/ }), '10')
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(api.to('GET /orders/calc')).toEqual([])
    // The counterparty named in the link: one request, not one per counterparty.
    expect(api.to(`GET /counterparties/${WALLET_UUID}/${BOB}/destinations`)).toEqual([])
  })

  it('shows the IBAN in full on the review, read again so it is the one priced', async () => {
    const { api, user } = renderSend(
      `&counterparty=${ANNA}&destination=${SEPA.counterparty_destination_id}`,
      {
        'GET /orders/calc': {
          body: {
            ...eurQuote,
            target: {
              ...eurQuote.target,
              kind: 'counterparty',
              counterparty_account_id: ANNA,
              counterparty_destination_id: SEPA.counterparty_destination_id,
              destination_type: 'SEPA',
              display: 'Anna Schmidt · DE89 … 3000',
            },
          },
        },
      },
    )
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Account or address' })).toHaveDisplayValue(
        'Main account · DE89 … 3000',
      ),
    )
    await user.type(screen.getByRole('textbox', { name: 'You send (EUR)' }), '50')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    const reads = api.to(`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`).length
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await screen.findByRole('heading', { name: 'Check and confirm' })
    expect(await screen.findByTestId('target-iban')).toHaveTextContent(
      'DE89 3704 0044 0532 0130 00',
    )
    expect(screen.getByText('To').nextSibling).toHaveTextContent('Anna Schmidt · DE89 … 3000')
    expect(api.to(`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`).length).toBe(reads + 1)
  })

  it('shows a typed crypto address whole, in groups of four, with its network', async () => {
    const typed = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW'
    const { user } = renderSend(`&currency=${USDT_UUID}`, {
      'GET /orders/calc': {
        body: aQuote({
          order_type: 'WITHDRAWAL_CRYPTO',
          from: { ...aQuote().from, amount: '25' },
          to: { ...aQuote().from, amount: '25' },
          total: '26.5',
          target: {
            ...aQuote().target,
            kind: 'address',
            wallet_uuid: null,
            chain: 'tron',
            address: typed,
            display: 'TJCn…sxMW',
          },
        }),
      },
    })
    await user.click(await screen.findByRole('radio', { name: 'A new address' }))
    await user.type(screen.getByRole('textbox', { name: 'Address' }), typed)
    await user.type(screen.getByRole('textbox', { name: 'You send (USDT)' }), '25')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(await screen.findByTestId('target-address')).toHaveTextContent(
      'TJCn KsPa 7y5o kkXv QAid ZBzq x3Qy Q6sx MW',
    )
    expect(screen.getByText('Network').nextSibling).toHaveTextContent('Tron')
    expect(screen.queryByText('TJCn…sxMW')).toBeNull()
  })

  it('puts an invalid address on the address field, with nothing to "try again"', async () => {
    const { api, user } = renderSend(`&currency=${USDT_UUID}`, {
      'GET /orders/calc': problem(422, 'ADDRESS_INVALID', {
        errors: [{ field: '/querystring/address', message: 'bad' }],
      }),
    })
    await user.click(await screen.findByRole('radio', { name: 'A new address' }))
    const address = screen.getByRole('textbox', { name: 'Address' })
    await user.type(address, 'T-not-an-address')
    await user.type(screen.getByRole('textbox', { name: 'You send (USDT)' }), '25')
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'))
    expect(address).toHaveAccessibleDescription(
      expect.stringContaining('This address is not valid on this network. Check it and try again.'),
    )
    expect(screen.getByRole('textbox', { name: 'You send (USDT)' })).not.toHaveAttribute(
      'aria-invalid',
    )
    expect(screen.queryByRole('button', { name: 'Get the price again' })).toBeNull()
    expect(api.to('GET /orders/calc')).toHaveLength(1)
  })
})

describe('a destination changed or deleted since the price', () => {
  const sepaQuote = (id: string) => ({
    ...eurQuote,
    quote_id: id,
    target: {
      ...eurQuote.target,
      kind: 'counterparty' as const,
      counterparty_account_id: ANNA,
      counterparty_destination_id: SEPA.counterparty_destination_id,
      destination_type: 'SEPA' as const,
      display: 'Anna Schmidt · DE89 … 3000',
    },
  })

  async function toReview(user: ReturnType<typeof renderSend>['user']) {
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Account or address' })).toHaveDisplayValue(
        'Main account · DE89 … 3000',
      ),
    )
    await user.type(screen.getByRole('textbox', { name: 'You send (EUR)' }), '50')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await screen.findByRole('heading', { name: 'Check and confirm' })
  }

  it('edited: says so, shows the new details at a new price, and confirms that one', async () => {
    let calcs = 0
    let posts = 0
    const edited = destination({
      label: 'Main account',
      iban: 'DE02120300000000202051',
      display: 'DE02 … 2051',
    })
    let current = SEPA
    const { api, user } = renderSend(
      `&counterparty=${ANNA}&destination=${SEPA.counterparty_destination_id}`,
      {
        [`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`]: () => ({
          body: aPage([current, TRON, ACH]),
        }),
        'GET /orders/calc': () => ({
          body: sepaQuote(`0190b0a4-0000-7000-8000-0000000001${String(calcs++).padStart(2, '0')}`),
        }),
        'POST /orders/WITHDRAWAL_FIAT_SEPA': () => {
          posts += 1
          if (posts === 1) {
            current = edited
            return problem(422, 'DESTINATION_CHANGED')
          }
          return { status: 201, body: anOrder({ order_type: 'WITHDRAWAL_FIAT_SEPA' }) }
        },
      },
    )
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(
      await screen.findByText(
        'The recipient’s details changed, so this is a new price. Check it and the details before you confirm.',
      ),
    ).toBeInTheDocument()
    expect(await screen.findByTestId('target-iban')).toHaveTextContent(
      'DE02 1203 0000 0000 2020 51',
    )
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: 'Transfer placed' })
    const [first, second] = api
      .to('POST /orders/WITHDRAWAL_FIAT_SEPA')
      .map((call) => call.body as { quote_id: string; request_id: string })
    expect(second!.quote_id).not.toBe(first!.quote_id)
    expect(second!.request_id).not.toBe(first!.request_id)
  })

  it('deleted: sends the person to choose another recipient', async () => {
    let deleted = false
    const { user } = renderSend(
      `&counterparty=${ANNA}&destination=${SEPA.counterparty_destination_id}`,
      {
        [`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`]: () => ({
          body: aPage(deleted ? [TRON, ACH] : [SEPA, TRON, ACH]),
        }),
        'GET /orders/calc': { body: sepaQuote(eurQuote.quote_id) },
        'POST /orders/WITHDRAWAL_FIAT_SEPA': () => {
          deleted = true
          return problem(422, 'DESTINATION_NOT_FOUND')
        },
      },
    )
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The recipient’s account or address was deleted after the price was set. Nothing was charged. Choose another recipient.',
    )
    await user.click(screen.getByRole('button', { name: 'Change the details' }))
    expect(
      await screen.findByText('This recipient has no account or address that can receive EUR.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Review' })).toBeDisabled()
  })
})
