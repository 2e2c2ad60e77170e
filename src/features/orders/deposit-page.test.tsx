import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DepositInstructions } from '../../../contract/orders.ts'
import {
  aCurrency,
  anAddress,
  anOrder,
  aPage,
  aQuote,
  aWallet,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import DepositPage from './deposit-page.tsx'

const EUR_UUID = '0190b0a4-0000-7000-8000-0000000000c9'
const USD_UUID = '0190b0a4-0000-7000-8000-0000000000ca'
const ETH_UUID = '0190b0a4-0000-7000-8000-0000000000c1'
const EUR = aCurrency({
  uuid: EUR_UUID,
  code: 'EUR',
  name: 'Euro',
  type: 'fiat',
  decimals: 2,
  chain: null,
})
const USD = aCurrency({
  uuid: USD_UUID,
  code: 'USD',
  name: 'US dollar',
  type: 'fiat',
  decimals: 2,
  chain: null,
})
const ETH = aCurrency({
  uuid: ETH_UUID,
  code: 'ETH',
  name: 'Ether',
  type: 'native',
  decimals: 18,
  chain: 'ethereum',
})
const W = `/wallets/${WALLET_UUID}`

const euros = { currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2 }
const INSTRUCTIONS: DepositInstructions = {
  beneficiary: 'Finplatform Payments GmbH',
  iban: 'DE02120300000000202051',
  account_number: null,
  bic: 'BYLADEM1001',
  bank_name: 'Sandbox Bank AG',
  bank_address: 'Unter den Linden 1, Berlin',
  reference: 'FP-7K3M9Q',
  amount: '251.00',
  currency: 'EUR',
}
const depositQuote = aQuote({
  order_type: 'DEPOSIT_FIAT_SEPA',
  from: { ...euros, amount: '250' },
  to: { ...euros, amount: '250' },
  rate: '1.00',
  fees: [{ kind: 'FIXED', currency_uuid: EUR_UUID, currency: 'EUR', amount: '1', percent: null }],
  total: '251',
})
const depositOrder = anOrder({
  order_type: 'DEPOSIT_FIAT_SEPA',
  from: depositQuote.from,
  to: depositQuote.to,
  fees: depositQuote.fees,
  total: '251',
  deposit_instructions: INSTRUCTIONS,
})

function renderDeposit(search: string, routes: Record<string, Route> = {}) {
  const api = mockApi({
    'GET /wallets': { body: aPage([aWallet({ balances: [] })]) },
    'GET /currencies': { body: aPage([ETH, EUR, USD]) },
    'GET /chains': {
      body: aPage([
        {
          id: 'ethereum',
          name: 'Ethereum',
          native_currency: 'ETH',
          address_format: 'evm',
          confirmations: 12,
        },
      ]),
    },
    [`GET ${W}/addresses/ethereum`]: { body: aPage([]) },
    'GET /orders/calc': { body: depositQuote },
    'POST /orders/DEPOSIT_FIAT_SEPA': { status: 201, body: depositOrder },
    [`GET /orders/${depositOrder.id}`]: { body: depositOrder },
    ...routes,
  })
  return { api, ...renderApp(<DepositPage />, { path: `/deposit?wallet=${WALLET_UUID}${search}` }) }
}

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('a bank deposit', () => {
  it('places the order and shows where to send the money, each value with its copy button', async () => {
    const { api, user } = renderDeposit(`&currency=${EUR_UUID}`)
    expect(await screen.findByRole('radio', { name: /^SEPA/ })).toBeChecked()
    await user.type(screen.getByRole('textbox', { name: 'You deposit (EUR)' }), '250')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(screen.getByText('Send by bank transfer').nextSibling).toHaveTextContent('€251.00')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))

    const bank = await screen.findByRole('region', { name: 'Send your bank transfer to' })
    expect(within(bank).getByRole('note')).toHaveTextContent(
      'Include the reference. Put FP-7K3M9Q in the payment reference field, exactly as shown.',
    )
    // Each reads "Copy" beside its label, and is named after it.
    const copies = within(bank)
      .getAllByRole('button')
      .map((button) => button.getAttribute('aria-label'))
    expect(copies).toEqual([
      'Copy reference',
      'Copy amount',
      'Copy beneficiary',
      'Copy IBAN',
      'Copy BIC / SWIFT',
      'Copy bank',
      'Copy bank address',
    ])
    expect(within(bank).getByText('€251.00')).toBeInTheDocument()

    await user.click(within(bank).getByRole('button', { name: 'Copy IBAN' }))
    expect(await navigator.clipboard.readText()).toBe('DE02120300000000202051')
    await user.click(within(bank).getByRole('button', { name: 'Copy amount' }))
    expect(await navigator.clipboard.readText()).toBe('251.00')
    await user.click(within(bank).getByRole('button', { name: 'Copy reference' }))
    expect(await navigator.clipboard.readText()).toBe('FP-7K3M9Q')
    expect(api.to('POST /orders/DEPOSIT_FIAT_SEPA')).toHaveLength(1)
  })

  it('takes dollars by SWIFT only, and shows an account number where there is no IBAN', async () => {
    const swift = anOrder({
      ...depositOrder,
      order_type: 'DEPOSIT_FIAT_SWIFT',
      deposit_instructions: {
        ...INSTRUCTIONS,
        iban: null,
        account_number: '0012345678',
        currency: 'USD',
      },
    })
    const { api, user } = renderDeposit(`&currency=${USD_UUID}`, {
      'GET /orders/calc': { body: { ...depositQuote, order_type: 'DEPOSIT_FIAT_SWIFT' } },
      'POST /orders/DEPOSIT_FIAT_SWIFT': { status: 201, body: swift },
      [`GET /orders/${swift.id}`]: { body: swift },
    })
    await user.type(await screen.findByRole('textbox', { name: 'You deposit (USD)' }), '250')
    expect(screen.queryByRole('radio')).toBeNull()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(api.to('GET /orders/calc')[0]!.query.get('order_type')).toBe('DEPOSIT_FIAT_SWIFT')
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    const bank = await screen.findByRole('region', { name: 'Send your bank transfer to' })
    expect(within(bank).getByRole('button', { name: 'Copy account number' })).toBeInTheDocument()
    expect(within(bank).queryByRole('button', { name: 'Copy IBAN' })).toBeNull()
  })
})

describe('a bank deposit’s result, reloaded', () => {
  it('still shows the bank details: the order is read from the address', async () => {
    const { api } = renderDeposit(`&order=${depositOrder.id}`)
    expect(
      await screen.findByRole('heading', { name: 'Now send your bank transfer' }),
    ).toBeInTheDocument()
    const bank = await screen.findByRole('region', { name: 'Send your bank transfer to' })
    expect(within(bank).getByText('FP-7K3M9Q')).toBeInTheDocument()
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })

  it('gets there by itself once placed, the order named in the address', async () => {
    const { user, history } = renderDeposit(`&currency=${EUR_UUID}`)
    await user.type(await screen.findByRole('textbox', { name: 'You deposit (EUR)' }), '250')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('region', { name: 'Send your bank transfer to' })
    expect(history.at(-1)).toBe(
      `/deposit?wallet=${WALLET_UUID}&currency=${EUR_UUID}&order=${depositOrder.id}`,
    )
  })
})

describe('a crypto deposit', () => {
  it('gets the wallet an address on the chain, shown with a QR code and copy', async () => {
    const address = anAddress()
    const { api, user } = renderDeposit(`&currency=${ETH_UUID}`, {
      [`POST ${W}/addresses/ethereum`]: { status: 201, body: address },
    })
    expect(await screen.findByText('This wallet has no Ethereum address yet.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Get an address' }))
    expect(await screen.findByTestId('deposit-address')).toHaveTextContent(address.address)
    expect(api.to(`POST ${W}/addresses/ethereum`)).toHaveLength(1)
    expect(
      await screen.findByRole('img', { name: `QR code of the address ${address.address}` }),
    ).toBeInTheDocument()
    expect(screen.getByRole('note')).toHaveTextContent('Send only ETH on Ethereum to this address.')
    await user.click(screen.getByRole('button', { name: 'Copy address' }))
    expect(await navigator.clipboard.readText()).toBe(address.address)
  })

  it('cannot get an address offline', async () => {
    const { api } = renderDeposit(`&currency=${ETH_UUID}`)
    await screen.findByText('This wallet has no Ethereum address yet.')
    act(() => onlineManager.setOnline(false))
    const get = screen.getByRole('button', { name: 'Get an address' })
    expect(get).toBeDisabled()
    expect(get).toHaveAccessibleDescription('You are offline. This needs a connection.')
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })
})
