import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { aWallet } from '../../../tests/support/builders.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import CardPage from './card-page.tsx'
import CardsPage from './cards-page.tsx'
import NewCardPage from './new-card-page.tsx'
import {
  ACCOUNT_ID,
  aCardDetail,
  aPage,
  aProgram,
  CARD_ID,
  CARD_WALLET,
  PROGRAM_ID,
} from './test-builders.ts'

const WALLETS = { body: aPage([aWallet({ uuid: CARD_WALLET })]) }
const CARD = `/issuing/cards/${CARD_ID}`

const listCard = (overrides: Record<string, unknown> = {}) => {
  const { fiat_account, ...card } = aCardDetail()
  return { ...card, fiat_account: { id: fiat_account.id, type: fiat_account.type }, ...overrides }
}

describe('cards list', () => {
  it('shows each card of the wallet with its last four, status and name', async () => {
    const api = mockApi({
      'GET /wallets': WALLETS,
      'GET /issuing/cards': {
        body: aPage([
          listCard(),
          listCard({ id: 'c2', nick_name: null, last4: '0005', status: 'FROZEN' }),
        ]),
      },
    })
    renderApp(<CardsPage />)
    const links = await screen.findAllByRole('link', { name: /Card ending in/ })
    expect(links).toHaveLength(2)
    expect(links[0]).toHaveAccessibleName(/Travel/)
    expect(links[0]).toHaveAccessibleName(/Card ending in 4242/)
    expect(links[0]).toHaveAccessibleName(/Active/)
    expect(links[1]).toHaveAccessibleName(/Card ending in 0005/)
    expect(links[1]).toHaveAccessibleName(/Frozen/)
    expect(links[0]).toHaveAttribute('href', `/cards/${CARD_ID}`)
    expect(api.to('GET /issuing/cards')[0]?.query.get('wallet_uuid')).toBe(CARD_WALLET)
  })

  it('speaks Russian', async () => {
    mockApi({ 'GET /wallets': WALLETS, 'GET /issuing/cards': { body: aPage([listCard()]) } })
    renderApp(<CardsPage />, { language: 'ru' })
    expect(await screen.findByRole('link', { name: /Карта, оканчивающаяся на 4242/ })).toBeVisible()
    expect(screen.getByRole('link', { name: 'Выпустить карту' })).toBeVisible()
  })
})

describe('issuing a card', () => {
  const account: FiatAccount = { ...aCardDetail().fiat_account, stand_alone: false }

  it('issues a stand-alone virtual card under a prepaid program, then opens it', async () => {
    const api = mockApi({
      'GET /wallets': WALLETS,
      'GET /issuing/config/programs': {
        body: aPage([aProgram(), aProgram({ id: 'archived', status: 'ARCHIVED', name: 'Old' })]),
      },
      [`GET /fiat-accounts/${CARD_WALLET}`]: { body: aPage([]) },
      'POST /issuing/cards/create': { status: 201, body: listCard() },
    })
    const { user, history } = renderApp(<NewCardPage />, {
      path: `/cards/new?wallet=${CARD_WALLET}`,
    })
    const program = await screen.findByRole('combobox', { name: 'Card program' })
    expect(within(program).getAllByRole('option')).toHaveLength(1)
    await user.click(screen.getByRole('radio', { name: 'Physical' }))
    await user.click(screen.getByRole('radio', { name: 'Virtual' }))
    await user.type(screen.getByRole('textbox', { name: 'Card name (optional)' }), ' Groceries ')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(history.at(-1)).toBe(`/cards/${CARD_ID}?issued=1`))
    expect(api.to('POST /issuing/cards/create')[0]?.body).toEqual({
      wallet_uuid: CARD_WALLET,
      program_id: PROGRAM_ID,
      form_factor: 'VIRTUAL',
      nick_name: 'Groceries',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
  })

  it('issues a card on an existing account, with that account’s program', async () => {
    const api = mockApi({
      'GET /wallets': WALLETS,
      'GET /issuing/config/programs': {
        body: aPage([aProgram({ form_factors: ['VIRTUAL'], sub_account_type: 'balance' })]),
      },
      [`GET /fiat-accounts/${CARD_WALLET}`]: {
        body: aPage([
          // A stand-alone card's own account takes no other card: not offered.
          { ...account, id: 'own', program_name: 'Solo EUR', stand_alone: true },
          account,
        ]),
      },
      'POST /issuing/cards/balance': { status: 201, body: listCard() },
    })
    const { user } = renderApp(<NewCardPage />, { path: '/cards/new' })
    // No prepaid program: the account is the only way, chosen already.
    expect(await screen.findByRole('radio', { name: 'An account I already have' })).toBeChecked()
    const accounts = screen.getByRole('combobox', { name: 'Account' })
    expect(accounts).toHaveDisplayValue(/Everyday EUR ··\s4821 · €125.50/)
    expect(within(accounts).getAllByRole('option')).toHaveLength(1)
    expect(screen.getByRole('radio', { name: 'Virtual' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    await waitFor(() =>
      expect(api.to('POST /issuing/cards/balance')[0]?.body).toEqual({
        fiat_account_id: ACCOUNT_ID,
        form_factor: 'VIRTUAL',
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    )
  })

  it('says what went wrong when the server refuses', async () => {
    mockApi({
      'GET /wallets': WALLETS,
      'GET /issuing/config/programs': { body: aPage([aProgram()]) },
      [`GET /fiat-accounts/${CARD_WALLET}`]: { body: aPage([]) },
      'POST /issuing/cards/create': problem(422, 'PROGRAM_NOT_ACTIVE'),
    })
    const { user } = renderApp(<NewCardPage />)
    await user.click(await screen.findByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).not.toBe('')
    expect(alert).not.toHaveTextContent('English detail')
  })
})

describe('card settings', () => {
  const routes = {
    [`GET ${CARD}`]: { body: aCardDetail() },
    [`GET ${CARD}/reveals`]: { body: aPage([]) },
    'GET /issuing/transactions/': { body: aPage([]) },
  }

  it('checks limits before sending: positive, two decimals, per payment ≤ daily ≤ monthly', async () => {
    const api = mockApi({ ...routes, [`PATCH ${CARD}/limits`]: { body: listCard() } })
    const { user } = renderApp(<CardPage id={CARD_ID} />)
    await user.click(await screen.findByRole('button', { name: 'Limits and controls' }))
    const perPayment = await screen.findByRole('textbox', { name: 'Per payment, EUR' })
    const daily = screen.getByRole('textbox', { name: 'Per day, EUR' })
    await user.clear(perPayment)
    await user.type(perPayment, '3000')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    expect(perPayment).toHaveAccessibleDescription('Must not be more than the daily limit.')
    expect(perPayment).toHaveFocus()
    await user.clear(daily)
    await user.type(daily, '0.001')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    expect(daily).toHaveAccessibleDescription(
      'Enter an amount above zero, with at most 2 decimals.',
    )
    expect(api.to(`PATCH ${CARD}/limits`)).toHaveLength(0)

    await user.clear(daily)
    await user.type(daily, '5000')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    expect(await screen.findByText('Limits saved.')).toBeVisible()
    expect(api.to(`PATCH ${CARD}/limits`)[0]?.body).toEqual({
      per_transaction: '3000',
      daily: '5000',
      monthly: '10000.00',
    })
  })

  it('renames with one request_id per name, so a retried save cannot rename twice', async () => {
    let answers = 0
    const api = mockApi({
      ...routes,
      [`PATCH ${CARD}/update`]: () => {
        answers += 1
        return answers === 1 ? problem(503, 'UNAVAILABLE') : { body: listCard() }
      },
    })
    const { user } = renderApp(<CardPage id={CARD_ID} />)
    await user.click(await screen.findByRole('button', { name: 'More' }))
    const name = await screen.findByRole('textbox', { name: 'Card name' })
    await user.clear(name)
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    expect(name).toHaveAccessibleDescription('Enter 1 to 64 characters.')
    await user.type(name, 'Online')
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    await screen.findByRole('alert')
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByText('Name saved.')).toBeVisible()
    const [first, retry] = api.to(`PATCH ${CARD}/update`).map((call) => call.body)
    expect(first).toEqual({
      nick_name: 'Online',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    expect(retry).toEqual(first)
  })
})
