import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { aPage, aQuote, USDT_UUID, WALLET_UUID } from '../../../tests/support/builders.ts'
import { problem } from '../../../tests/support/mock-api.ts'
import {
  ACH,
  ANNA,
  afterSendTest,
  BOB,
  BOB_SEPA,
  eurQuote,
  P2P_UUID,
  renderSend,
  SEPA,
} from './send-fixture.tsx'
import { EUR_UUID } from './test-fixtures.ts'

afterEach(afterSendTest)

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
