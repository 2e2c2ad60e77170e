import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import {
  aBalance,
  aCurrency,
  aPage,
  aQuote,
  aWallet,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { EUR, EUR_UUID } from './test-fixtures.ts'
import TopUpPage, { topUpType } from './top-up-page.tsx'

const USDT = aCurrency()
const BTC = aCurrency({
  uuid: '0190b0a4-0000-7000-8000-0000000000c3',
  code: 'BTC',
  type: 'native',
  decimals: 8,
  chain: 'bitcoin',
})

const account = (overrides: Partial<FiatAccount> = {}): FiatAccount => ({
  id: '0190b0a4-0000-7000-8000-00000000fa01',
  wallet_uuid: WALLET_UUID,
  program_id: '0190b0a4-0000-7000-8000-00000000ab01',
  program_name: 'Travel card',
  account_last4: '1234',
  bank_details: null,
  sub_account_type: 'prepaid',
  stand_alone: false,
  status: 'ACTIVE',
  currency_uuid: EUR_UUID,
  currency: 'EUR',
  balance: '12.5',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
})
const PREPAID = account()
const BALANCE = account({
  id: '0190b0a4-0000-7000-8000-00000000fa02',
  program_name: 'Everyday card',
  account_last4: '5678',
  sub_account_type: 'balance',
})

function renderTopUp(search: string, routes: Record<string, Route> = {}) {
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
      ]),
    },
    'GET /currencies': { body: aPage([USDT, EUR, BTC]) },
    'GET /chains': { body: aPage([]) },
    [`GET /fiat-accounts/${WALLET_UUID}`]: { body: aPage([PREPAID, BALANCE]) },
    'GET /orders/calc': { body: aQuote() },
    ...routes,
  })
  return { api, ...renderApp(<TopUpPage />, { path: `/top-up?wallet=${WALLET_UUID}${search}` }) }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('which order a top-up is', () => {
  it.each([
    ['a prepaid account', 'EUR', 'TRANSFER_CARD_PREPAID', PREPAID, EUR_UUID],
    ['a balance account', 'EUR', 'TRANSFER_CARD_SUBACCOUNT', BALANCE, EUR_UUID],
    ['a prepaid account', 'USDT', 'TRANSFER_CARD_WHOLESALE', PREPAID, USDT_UUID],
    ['a balance account', 'USDT', 'TRANSFER_CARD_WHOLESALE', BALANCE, USDT_UUID],
  ] as const)('%s paid in %s is %s', (_name, _code, type, fiatAccount, payWith) => {
    expect(topUpType(fiatAccount, payWith)).toBe(type)
  })
})

describe('topping up a card account', () => {
  it('quotes the account’s own currency, then stablecoins as a wholesale transfer', async () => {
    const { api, user } = renderTopUp(`&account=${BALANCE.id}`)
    const accountField = await screen.findByRole('combobox', { name: 'Card account' })
    expect(accountField).toHaveDisplayValue(/^Everyday card ··\s5678 · balance · €12\.50$/)
    const payWith = screen.getByRole('combobox', { name: 'Pay with' })
    // Only the account's currency and the stablecoins pay for a top-up.
    expect([...(payWith as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      USDT_UUID,
      EUR_UUID,
    ])
    await user.selectOptions(payWith, EUR_UUID)
    await user.type(screen.getByRole('textbox', { name: 'The card account gets (EUR)' }), '40')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))
    expect(Object.fromEntries(api.to('GET /orders/calc')[0]!.query)).toEqual({
      order_type: 'TRANSFER_CARD_SUBACCOUNT',
      wallet_uuid: WALLET_UUID,
      from_uuid: EUR_UUID,
      fiat_account_id: BALANCE.id,
      amount_to: '40',
    })

    await user.selectOptions(payWith, USDT_UUID)
    expect(payWith).toHaveAccessibleDescription('Converted into EUR at the quoted rate.')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(2))
    expect(api.to('GET /orders/calc')[1]!.query.get('order_type')).toBe('TRANSFER_CARD_WHOLESALE')
  })

  it('names a stand-alone card’s account after its card, asking for the accounts with their cards', async () => {
    const card = { status: 'ACTIVE', form_factor: 'VIRTUAL' } as const
    const online = account({
      id: '0190b0a4-0000-7000-8000-00000000fa03',
      program_name: 'Virtual EUR prepaid',
      account_last4: '4781',
      stand_alone: true,
      balance: '0',
      cards: [
        {
          ...card,
          id: '0190b0a4-0000-7000-8000-00000000cc01',
          last4: '3044',
          nick_name: 'Online shopping',
        },
      ],
    })
    const unnamed = account({
      id: '0190b0a4-0000-7000-8000-00000000fa04',
      program_name: 'Virtual EUR prepaid',
      account_last4: '4782',
      stand_alone: true,
      balance: '0',
      cards: [
        { ...card, id: '0190b0a4-0000-7000-8000-00000000cc02', last4: '3045', nick_name: null },
      ],
    })
    const { api } = renderTopUp(`&account=${online.id}`, {
      [`GET /fiat-accounts/${WALLET_UUID}`]: { body: aPage([online, unnamed, BALANCE]) },
    })
    const accountField = await screen.findByRole('combobox', { name: 'Card account' })
    expect(accountField).toHaveDisplayValue(/^Online shopping ··\s3044 · prepaid · €0\.00$/)
    expect(
      [...(accountField as HTMLSelectElement).options].map((option) => option.text.split(' · ')[0]),
    ).toEqual(['Online shopping ··\u00a03044', 'Card ··\u00a03045', 'Everyday card ··\u00a05678'])
    expect(api.to(`GET /fiat-accounts/${WALLET_UUID}`)[0]!.query.get('show_cards')).toBe('true')
  })

  it('pays by default in what the wallet holds: a stablecoin when it has none of the account’s currency', async () => {
    renderTopUp('', {
      'GET /wallets': {
        body: aPage([
          aWallet({
            balances: [
              aBalance({
                currency_uuid: USDT_UUID,
                currency: 'USDT',
                chain: 'tron',
                decimals: 6,
                available: '80',
              }),
            ],
          }),
        ]),
      },
    })
    expect(await screen.findByRole('combobox', { name: 'Pay with' })).toHaveValue(USDT_UUID)
  })

  it('pays by default in the account’s own currency when the wallet has it', async () => {
    renderTopUp('')
    expect(await screen.findByRole('combobox', { name: 'Pay with' })).toHaveValue(EUR_UUID)
  })

  it('explains that there is no card account yet', async () => {
    renderTopUp('', { [`GET /fiat-accounts/${WALLET_UUID}`]: { body: aPage([]) } })
    expect(await screen.findByRole('heading', { name: 'No card accounts yet' })).toBeInTheDocument()
    expect(screen.getByText(/A card account holds the money your cards spend/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Review' })).toBeNull()
  })
})
