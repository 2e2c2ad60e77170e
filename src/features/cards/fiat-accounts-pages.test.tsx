import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import { aWallet } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import CardsPage from './cards-page.tsx'
import FiatAccountPage from './fiat-account-page.tsx'
import FiatAccountsPage from './fiat-accounts-page.tsx'
import {
  ACCOUNT_ID,
  aCardDetail,
  aCardTransaction,
  aPage,
  CARD_ID,
  CARD_WALLET,
  EUR_UUID,
} from './test-builders.ts'

const ACCOUNTS = `GET /fiat-accounts/${CARD_WALLET}`
const ACCOUNT = `GET /fiat-accounts/${CARD_WALLET}/${ACCOUNT_ID}`
const WALLETS = { body: aPage([aWallet({ uuid: CARD_WALLET })]) }

const anAccount = (overrides: Partial<FiatAccount> = {}): FiatAccount => ({
  ...aCardDetail().fiat_account,
  program_name: 'Family EUR',
  sub_account_type: 'balance',
  stand_alone: false,
  cards: [
    { id: CARD_ID, last4: '4242', nick_name: 'Travel', status: 'ACTIVE', form_factor: 'VIRTUAL' },
    { id: 'c2', last4: '0005', nick_name: null, status: 'FROZEN', form_factor: 'PHYSICAL' },
  ],
  ...overrides,
})

const aProgram = (overrides: Partial<CardProgram> = {}): CardProgram => ({
  id: 'p-balance',
  name: 'Family EUR',
  status: 'ACTIVE',
  currency_uuid: EUR_UUID,
  currency: 'EUR',
  form_factors: ['VIRTUAL'],
  card_type: 'DEBIT',
  sub_account_type: 'balance',
  fees: { issue: '0.00', monthly: '2.00', top_up_percent: '1' },
  ...overrides,
})

const PROGRAMS = {
  body: aPage([
    aProgram(),
    aProgram({ id: 'p-prepaid', name: 'Prepaid', sub_account_type: 'prepaid' }),
    aProgram({ id: 'p-old', name: 'Old', status: 'ARCHIVED' }),
  ]),
}

function renderList(routes: Record<string, Route>, language: 'en' | 'ru' = 'en') {
  const api = mockApi({
    'GET /wallets': WALLETS,
    'GET /issuing/config/programs': PROGRAMS,
    ...routes,
  })
  return { api, ...renderApp(<FiatAccountsPage />, { path: '/accounts', language }) }
}

describe('fiat accounts list', () => {
  it('lists the wallet’s accounts with program, currency, balance, status and cards', async () => {
    const { api } = renderList({
      [ACCOUNTS]: {
        body: aPage([anAccount(), anAccount({ id: 'a2', status: 'BLOCKED', cards: [] })]),
      },
    })
    const list = await screen.findByRole('list', { name: 'Accounts' })
    const [first, second] = within(list).getAllByRole('link')
    expect(first).toHaveTextContent('Family EUR')
    expect(first).toHaveTextContent('EUR · 2 cards')
    expect(first).toHaveTextContent('€125.50')
    expect(first).toHaveTextContent('Active')
    expect(first).toHaveAttribute('href', `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`)
    expect(second).toHaveTextContent('0 cards')
    expect(second).toHaveTextContent('Blocked')
    const query = api.to(ACCOUNTS)[0]?.query
    expect(query?.get('show_cards')).toBe('true')
    expect(query?.get('offset')).toBe('0')
  })

  it('pages through many accounts', async () => {
    const { api, user } = renderList({
      [ACCOUNTS]: (call) =>
        call.query.get('offset') === '0'
          ? { body: { ...aPage([anAccount()]), total: 2, is_last_page: false } }
          : { body: { ...aPage([anAccount({ id: 'a2' })]), offset: 1, total: 2 } },
    })
    await user.click(await screen.findByRole('button', { name: 'Show more accounts' }))
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Accounts' })).getAllByRole('link'),
      ).toHaveLength(2),
    )
    expect(api.to(ACCOUNTS)[1]?.query.get('offset')).toBe('1')
  })

  it('says so when there is none, and tries again after a failure', async () => {
    let calls = 0
    const { user } = renderList({
      [ACCOUNTS]: () => {
        calls += 1
        return calls === 1 ? problem(500, 'INTERNAL') : { body: aPage([]) }
      },
    })
    expect(await screen.findByRole('alert')).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('No accounts in this wallet yet.')).toBeVisible()
  })

  it('opens an account under an active balance program, then shows it', async () => {
    const opened = anAccount({ id: 'a-new', cards: undefined, balance: '0.00' })
    const { api, user, history } = renderList({
      [ACCOUNTS]: { body: aPage([]) },
      [`POST /fiat-accounts/${CARD_WALLET}`]: { status: 201, body: opened },
    })
    const program = await screen.findByRole('combobox', { name: 'Card program' })
    // Only ACTIVE programs of sub-account type `balance` open shared accounts.
    expect(
      within(program)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Family EUR · EUR · card fees: €0.00 to issue, €2.00 a month per card'])
    await user.click(screen.getByRole('button', { name: 'Open account' }))
    await waitFor(() => expect(history.at(-1)).toBe(`/accounts/a-new?wallet=${CARD_WALLET}`))
    expect(api.to(`POST /fiat-accounts/${CARD_WALLET}`)[0]?.body).toEqual({
      program_id: 'p-balance',
    })
  })

  it('shows a refused program on the field', async () => {
    const { user } = renderList({
      [ACCOUNTS]: { body: aPage([]) },
      [`POST /fiat-accounts/${CARD_WALLET}`]: problem(422, 'PROGRAM_ARCHIVED', {
        errors: [{ field: '/body/program_id', message: 'Archived.' }],
      }),
    })
    await user.click(await screen.findByRole('button', { name: 'Open account' }))
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Card program' })).toHaveAccessibleDescription(
        'This program opens no new accounts. Choose another.',
      ),
    )
  })

  it('is linked from the cards list', async () => {
    mockApi({ 'GET /wallets': WALLETS, 'GET /issuing/cards': { body: aPage([]) } })
    renderApp(<CardsPage />)
    expect(await screen.findByRole('link', { name: /^Your accounts/ })).toHaveAttribute(
      'href',
      `/accounts?wallet=${CARD_WALLET}`,
    )
  })

  it('speaks Russian, plurals included', async () => {
    renderList(
      {
        [ACCOUNTS]: {
          body: aPage([
            anAccount(),
            anAccount({ id: 'a5', cards: Array(5).fill(anAccount().cards![0]) }),
          ]),
        },
      },
      'ru',
    )
    const [two, five] = within(await screen.findByRole('list', { name: 'Счета' })).getAllByRole(
      'link',
    )
    expect(two).toHaveTextContent('2 карты')
    expect(five).toHaveTextContent('5 карт')
    expect(two).toHaveTextContent('Активен')
  })
})

describe('fiat account page', () => {
  const routes = (account: FiatAccount = anAccount()) => ({
    [ACCOUNT]: { body: account },
    [`${ACCOUNT}/transactions`]: {
      body: aPage([aCardTransaction({ status: 'SETTLED', card_last4: '0005' })]),
    },
  })

  it('shows balance, status, its cards, its transactions and where to go next', async () => {
    const api = mockApi(routes())
    renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Family EUR ··\u00a04821' }),
    ).toBeVisible()
    expect(screen.getByText('Balance').nextSibling).toHaveTextContent('€125.50')
    expect(screen.getByText('Status').nextSibling).toHaveTextContent(/^Active$/)
    expect(api.to(ACCOUNT)[0]?.query.get('show_cards')).toBe('true')

    const cards = screen.getByRole('heading', { name: 'Cards on this account' }).closest('section')!
    const links = within(cards).getAllByRole('link')
    expect(links).toHaveLength(2)
    expect(links[0]).toHaveAccessibleName(/Travel.*Active.*Card ending in 4242/)
    expect(links[0]).toHaveAttribute('href', `/cards/${CARD_ID}`)

    expect(screen.getByRole('link', { name: 'Issue a card on this account' })).toHaveAttribute(
      'href',
      `/cards/new?wallet=${CARD_WALLET}&account=${ACCOUNT_ID}`,
    )
    expect(screen.getByRole('link', { name: 'Top up' })).toHaveAttribute(
      'href',
      `/top-up?wallet=${CARD_WALLET}&account=${ACCOUNT_ID}`,
    )
    const transactions = await screen.findByRole('list', { name: 'Transactions' })
    // An account spans cards: each row says which.
    expect(within(transactions).getByTestId('card-tx-row')).toHaveTextContent('Card ending in 0005')
  })

  const BANK = {
    iban: 'DE89100100108123454821',
    bic: 'SBXBDEB1XXX',
    bank_name: 'Sandbox Bank AG',
    account_holder: 'Anna Schmidt',
  }

  it('shows what a person needs to pay in by bank transfer, each value with its own copy button', async () => {
    mockApi(routes(anAccount({ bank_details: BANK })))
    const { user } = renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    const bank = (
      await screen.findByRole('heading', { level: 2, name: 'Pay in by bank transfer' })
    ).closest('section')!
    expect(within(bank).getByText('Account holder').nextSibling).toHaveTextContent('Anna Schmidt')
    // Read in groups of four, copied without the spaces.
    expect(within(bank).getByText('DE89 1001 0010 8123 4548 21')).toBeVisible()
    expect(
      within(bank)
        .getAllByRole('button')
        .map((button) => [button.textContent, button.getAttribute('aria-label')].join(' / ')),
    ).toEqual([
      'Copy / Copy account holder',
      'Copy / Copy IBAN',
      'Copy / Copy BIC',
      'Copy / Copy bank',
    ])
    await user.click(within(bank).getByRole('button', { name: 'Copy IBAN' }))
    expect(await navigator.clipboard.readText()).toBe('DE89100100108123454821')
    expect(
      within(bank)
        .getAllByRole('status')
        .map((status) => status.textContent),
    ).toContain('Copied')
    await user.click(within(bank).getByRole('button', { name: 'Copy BIC' }))
    expect(await navigator.clipboard.readText()).toBe('SBXBDEB1XXX')
    expect(within(bank).getByText(/No reference needed/)).toBeVisible()
  })

  it('without the person’s name, asks for it; an account with no bank rail shows no bank details', async () => {
    mockApi(routes(anAccount({ bank_details: { ...BANK, account_holder: null } })))
    const first = renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
      language: 'ru',
    })
    const bank = (
      await screen.findByRole('heading', { name: 'Пополнение банковским переводом' })
    ).closest('section')!
    expect(within(bank).queryByText('Владелец счёта')).toBeNull()
    expect(within(bank).getByRole('link', { name: 'личные данные в профиле' })).toHaveAttribute(
      'href',
      '/profile',
    )
    expect(within(bank).getByRole('button', { name: 'Копировать: IBAN' })).toBeVisible()
    first.unmount()

    mockApi(routes(anAccount({ bank_details: null })))
    renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    expect(await screen.findByRole('link', { name: 'Top up' })).toBeVisible()
    expect(screen.queryByRole('heading', { name: 'Pay in by bank transfer' })).toBeNull()
  })

  it('offers no other card on a stand-alone card’s own account, only a top-up', async () => {
    mockApi(routes(anAccount({ stand_alone: true, sub_account_type: 'prepaid' })))
    renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    expect(await screen.findByRole('link', { name: 'Top up' })).toBeVisible()
    expect(screen.queryByRole('link', { name: 'Issue a card on this account' })).toBeNull()
  })

  it('explains a blocked account and offers no actions on it', async () => {
    mockApi(routes(anAccount({ status: 'BLOCKED', cards: [] })))
    renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    expect(
      await screen.findByText('· The issuer has blocked it: no payments for now.', {
        exact: false,
      }),
    ).toBeVisible()
    expect(screen.queryByRole('link', { name: 'Top up' })).toBeNull()
    expect(screen.getByText('No cards on this account yet.')).toBeVisible()
  })

  it('finds the account through v1 when the link does not name the wallet', async () => {
    const api = mockApi({
      [`GET /fiat_accounts/${ACCOUNT_ID}`]: { body: anAccount() },
      [`${ACCOUNT}/transactions`]: { body: aPage([]) },
    })
    renderApp(<FiatAccountPage id={ACCOUNT_ID} />, { path: `/accounts/${ACCOUNT_ID}` })
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Family EUR ··\u00a04821' }),
    ).toBeVisible()
    expect(await screen.findByText('No transactions yet.')).toBeVisible()
    expect(api.to(`GET /fiat_accounts/${ACCOUNT_ID}`)[0]?.query.get('show_cards')).toBe('true')
  })

  it('says what failed and tries again', async () => {
    let calls = 0
    mockApi({
      ...routes(),
      [ACCOUNT]: () => {
        calls += 1
        return calls === 1 ? problem(503, 'UNAVAILABLE') : { body: anAccount() }
      },
    })
    const { user } = renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The service is briefly unavailable.',
    )
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Family EUR ··\u00a04821' }),
    ).toBeVisible()
  })

  it('says an account that is not there does not exist, with the way back', async () => {
    mockApi({ ...routes(), [ACCOUNT]: problem(404, 'FIAT_ACCOUNT_NOT_FOUND') })
    renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
      path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    })
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This account doesn’t exist' }),
    ).toBeVisible()
    expect(screen.getByRole('link', { name: 'All accounts' })).toBeVisible()
  })
})
