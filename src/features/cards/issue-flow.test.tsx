import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { aWallet } from '../../../tests/support/builders.ts'
import { COUNTRIES, mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { fakeMiniApp } from '../../telegram/fake-mini-app.ts'
import { MiniAppProvider } from '../../telegram/mini-app.tsx'
import type { MiniAppControls } from '../../telegram/sdk.ts'
import NewCardPage from './new-card-page.tsx'
import { accountQuery, accountTransactionsQuery } from './queries.ts'
import {
  ACCOUNT_ID,
  aCardDetail,
  aPage,
  aProgram,
  CARD_ID,
  CARD_WALLET,
  EUR_UUID,
  PROGRAM_ID,
} from './test-builders.ts'

const CREATE = 'POST /issuing/cards/create'
const BALANCE = 'POST /issuing/cards/balance'

const created = () => {
  const { fiat_account, ...card } = aCardDetail()
  return { status: 201, body: { ...card, fiat_account: { id: fiat_account.id, type: 'prepaid' } } }
}

function renderIssue(
  routes: Record<string, Route>,
  options: { accounts?: FiatAccount[]; path?: string; telegram?: MiniAppControls } = {},
) {
  const api = mockApi({
    'GET /wallets': { body: aPage([aWallet({ uuid: CARD_WALLET })]) },
    'GET /issuing/config/programs': { body: aPage([aProgram()]) },
    [`GET /fiat-accounts/${CARD_WALLET}`]: { body: aPage(options.accounts ?? []) },
    'GET /location/countries': COUNTRIES,
    ...routes,
  })
  return {
    api,
    ...renderApp(
      <MiniAppProvider controls={options.telegram}>
        <NewCardPage />
      </MiniAppProvider>,
      { path: options.path ?? `/cards/new?wallet=${CARD_WALLET}` },
    ),
  }
}

const field = (name: string) => screen.getByRole('textbox', { name })
const UUID = /^[0-9a-f-]{36}$/

/** A physical card to Berlin, in `country`: through the address and the review, then issued. */
async function issuePhysical(user: ReturnType<typeof renderIssue>['user'], country: string) {
  await user.click(await screen.findByRole('radio', { name: 'Physical' }))
  await user.click(screen.getByRole('button', { name: 'Continue' }))
  await user.type(await screen.findByRole('textbox', { name: 'Recipient name' }), 'Ada')
  await user.type(field('Address line 1'), '1 Road')
  await user.type(field('City'), 'Berlin')
  await user.type(field('Postal code'), '10115')
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Country' }), country)
  await user.click(screen.getByRole('button', { name: 'Continue' }))
  await user.click(await screen.findByRole('button', { name: 'Issue card' }))
}

describe('issuing a physical card', () => {
  it('asks where to send it, checks the address, shows the fees, then issues it', async () => {
    const { api, user, history } = renderIssue({ [CREATE]: created() })
    await user.click(await screen.findByRole('radio', { name: 'Physical' }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    expect(await screen.findByRole('heading', { name: 'Delivery address' })).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(field('Recipient name')).toHaveAccessibleDescription('This is required.')
    expect(field('Recipient name')).toHaveFocus()
    expect(field('Address line 2 (optional)')).not.toHaveAccessibleDescription()
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveAccessibleDescription(
      'This is required.',
    )

    await user.type(field('Recipient name'), 'Ada Lovelace')
    await user.type(field('Address line 1'), ' 12 Square ')
    await user.type(field('City'), 'London')
    await user.type(field('Postal code'), 'SW1Y#4JH')
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Country' }), 'GB')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(field('Postal code')).toHaveAccessibleDescription(
      'Enter a postal code: letters, digits, spaces and dashes.',
    )
    expect(field('Postal code')).toHaveFocus()
    await user.clear(field('Postal code'))
    await user.type(field('Postal code'), 'SW1Y 4JH')
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    const review = await screen.findByRole('heading', { name: 'Check and confirm' })
    expect(review).toHaveFocus()
    const facts = screen.getByText('Issue fee').closest('dl')!
    expect(within(facts).getByText('Issue fee').nextSibling).toHaveTextContent('€5.00')
    expect(within(facts).getByText('Monthly fee').nextSibling).toHaveTextContent('€1.00')
    expect(within(facts).getByText('Delivery address').nextSibling).toHaveTextContent(
      'Ada Lovelace, 12 Square, SW1Y 4JH London, GB',
    )
    await user.click(screen.getByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(history.at(-1)).toBe(`/cards/${CARD_ID}?issued=1`))
    expect(api.to(CREATE)[0]?.body).toEqual({
      wallet_uuid: CARD_WALLET,
      program_id: PROGRAM_ID,
      form_factor: 'PHYSICAL',
      request_id: expect.stringMatching(UUID),
      delivery_address: {
        recipient_name: 'Ada Lovelace',
        line1: '12 Square',
        city: 'London',
        postal_code: 'SW1Y 4JH',
        country: 'GB',
      },
    })
  })

  it('takes the server’s word on a field back to the address, and asks again with a new request', async () => {
    let calls = 0
    const { api, user } = renderIssue({
      [CREATE]: () => {
        calls += 1
        return calls === 1
          ? problem(422, 'INVALID_DELIVERY_ADDRESS', {
              errors: [{ field: '/body/delivery_address/country', message: 'Unknown.' }],
            })
          : created()
      },
    })
    await issuePhysical(user, 'GB')

    const country = await screen.findByRole('combobox', { name: 'Country' })
    expect(country).toHaveAccessibleDescription('Check this field.')
    await waitFor(() => expect(country).toHaveFocus())
    expect(field('City')).not.toHaveAccessibleDescription()
    await user.selectOptions(country, 'DE')
    expect(country).not.toHaveAccessibleDescription()
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(api.to(CREATE)).toHaveLength(2))
    const [first, second] = api.to(CREATE).map((call) => call.body as { request_id: string })
    expect(second?.request_id).not.toBe(first?.request_id)
  })

  it('leaves the focus in the field the server named while it is corrected', async () => {
    const { user } = renderIssue({
      [CREATE]: problem(422, 'INVALID_DELIVERY_ADDRESS', {
        errors: [{ field: '/body/delivery_address/city', message: 'Too vague.' }],
      }),
    })
    await issuePhysical(user, 'DE')

    const city = await screen.findByRole('textbox', { name: 'City' })
    await waitFor(() => expect(city).toHaveFocus())
    // Typing clears the error: the step must not take that as a reason to move the focus.
    await user.keyboard(' Mitte')
    expect(city).toHaveValue('Berlin Mitte')
    expect(city).toHaveFocus()
    expect(screen.getByRole('heading', { name: 'Delivery address' })).not.toHaveFocus()
  })
})

describe('issuing: one card per attempt', () => {
  it('sends one request for a double tap, and the same request_id on a retry', async () => {
    let calls = 0
    let release!: () => void
    const slow = new Promise<void>((resolve) => (release = resolve))
    const { api, user } = renderIssue({
      [CREATE]: async () => {
        calls += 1
        if (calls > 1) return created()
        await slow
        return problem(503, 'UNAVAILABLE')
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Continue' }))
    await user.dblClick(await screen.findByRole('button', { name: 'Issue card' }))
    release()
    expect(await screen.findByRole('alert')).toBeVisible()
    expect(api.to(CREATE)).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(api.to(CREATE)).toHaveLength(2))
    const [first, retry] = api.to(CREATE).map((call) => call.body)
    expect(retry).toEqual(first)
  })
})

describe('issuing after a lost answer', () => {
  afterEach(() => sessionStorage.clear())

  it('a reload and the same choices confirmed again send the same request_id; other choices a new one', async () => {
    const lost = renderIssue({
      [CREATE]: () => {
        throw new TypeError('Failed to fetch')
      },
    })
    await lost.user.click(await screen.findByRole('button', { name: 'Continue' }))
    await lost.user.click(await screen.findByRole('button', { name: 'Issue card' }))
    expect(await screen.findByRole('alert')).toBeVisible()
    const [sent] = lost.api.to(CREATE).map((call) => call.body as { request_id: string })
    lost.unmount()

    // The reload: a new page, nothing in memory but the tab's storage.
    const again = renderIssue({ [CREATE]: created() })
    await again.user.click(await screen.findByRole('button', { name: 'Continue' }))
    await again.user.click(await screen.findByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(again.history.at(-1)).toBe(`/cards/${CARD_ID}?issued=1`))
    expect(again.api.to(CREATE)[0]?.body).toEqual(sent)
    // Answered: nothing is left to resume, and the next card is another request.
    expect(sessionStorage.length).toBe(0)
    again.unmount()

    const next = renderIssue({ [CREATE]: created() })
    await next.user.click(await screen.findByRole('button', { name: 'Continue' }))
    await next.user.click(await screen.findByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(next.api.to(CREATE)).toHaveLength(1))
    const body = next.api.to(CREATE)[0]?.body as { request_id: string }
    expect(body.request_id).toMatch(UUID)
    expect(body.request_id).not.toBe(sent?.request_id)
  })
})

describe('issuing: the issue fee', () => {
  const account: FiatAccount = {
    ...aCardDetail().fiat_account,
    sub_account_type: 'balance',
    stand_alone: false,
    balance: '2.00',
  }

  it('on an account (preselected by the link), says the fee is not covered and links to top it up', async () => {
    const { api, user } = renderIssue(
      {
        'GET /issuing/config/programs': {
          body: aPage([aProgram({ sub_account_type: 'balance', form_factors: ['VIRTUAL'] })]),
        },
        [BALANCE]: problem(422, 'INSUFFICIENT_FUNDS', {
          errors: [{ field: '/body/fiat_account_id', message: 'Not enough.' }],
        }),
      },
      { accounts: [account], path: `/cards/new?wallet=${CARD_WALLET}&account=${ACCOUNT_ID}` },
    )
    expect(await screen.findByRole('radio', { name: 'An account I already have' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(
      'There is not enough money to pay the issue fee of €5.00. Top up, then try again.',
    )
    expect(within(alert).getByRole('link', { name: 'Top up' })).toHaveAttribute(
      'href',
      `/top-up?wallet=${CARD_WALLET}&account=${ACCOUNT_ID}`,
    )
    expect(api.to(BALANCE)[0]?.body).toMatchObject({ fiat_account_id: ACCOUNT_ID })
  })

  it('on an account, has the account’s balance and transactions read again once issued', async () => {
    const { user, queryClient, history } = renderIssue(
      {
        'GET /issuing/config/programs': {
          body: aPage([aProgram({ sub_account_type: 'balance', form_factors: ['VIRTUAL'] })]),
        },
        [BALANCE]: created(),
      },
      { accounts: [account], path: `/cards/new?wallet=${CARD_WALLET}&account=${ACCOUNT_ID}` },
    )
    // What the account page had read before: its detail and a page of its history.
    const detail = accountQuery(ACCOUNT_ID, CARD_WALLET).queryKey
    const transactions = accountTransactionsQuery(CARD_WALLET, ACCOUNT_ID).queryKey
    queryClient.setQueryData(detail, account)
    queryClient.setQueryData(transactions, { pages: [aPage([])], pageParams: [0] })
    const seen: readonly (readonly string[])[] = [detail, transactions]
    await user.click(await screen.findByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    await waitFor(() => expect(history.at(-1)).toBe(`/cards/${CARD_ID}?issued=1`))
    for (const key of seen)
      expect(queryClient.getQueryState(key)?.isInvalidated, key.join('/')).toBe(true)
  })

  it('stand-alone, links to adding money to the wallet the fee comes from', async () => {
    const { user } = renderIssue({ [CREATE]: problem(422, 'INSUFFICIENT_FUNDS') })
    await user.click(await screen.findByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Issue card' }))
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('link', { name: 'Add money to the wallet' })).toHaveAttribute(
      'href',
      `/deposit?wallet=${CARD_WALLET}&currency=${EUR_UUID}`,
    )
  })

  it('speaks Russian', async () => {
    mockApi({
      'GET /wallets': { body: aPage([aWallet({ uuid: CARD_WALLET })]) },
      'GET /issuing/config/programs': { body: aPage([aProgram()]) },
      [`GET /fiat-accounts/${CARD_WALLET}`]: { body: aPage([]) },
    })
    const { user } = renderApp(<NewCardPage />, { language: 'ru' })
    await user.click(await screen.findByRole('button', { name: 'Продолжить' }))
    expect(await screen.findByRole('heading', { name: 'Проверьте и подтвердите' })).toBeVisible()
    expect(screen.getByText('Плата за выпуск')).toBeVisible()
  })
})

describe('issuing in Telegram', () => {
  it('puts Continue, then Issue card on the MainButton, asks before closing while issuing, and buzzes on success', async () => {
    const tg = fakeMiniApp()
    let answer: () => void = () => {}
    const { api, history } = renderIssue(
      {
        [CREATE]: () =>
          new Promise((resolve) => {
            answer = () => resolve(created())
          }),
      },
      { telegram: tg.controls },
    )
    await screen.findByRole('heading', { name: 'Choose the card' })
    expect(tg.state.mainButton).toEqual({ text: 'Continue', enabled: true, busy: false })

    await tg.pressMain()
    expect(await screen.findByRole('heading', { name: 'Check and confirm' })).toHaveFocus()
    expect(tg.state.mainButton).toEqual({ text: 'Issue card', enabled: true, busy: false })
    expect(tg.state.closing).toBe(false)

    await tg.pressMain()
    await waitFor(() =>
      expect(tg.state.mainButton).toEqual({ text: 'Issue card', enabled: false, busy: true }),
    )
    expect(tg.state.closing).toBe(true)
    // A second press while the first is on its way sends nothing more.
    await tg.pressMain()

    answer()
    await waitFor(() => expect(history.at(-1)).toBe(`/cards/${CARD_ID}?issued=1`))
    expect(api.to(CREATE)).toHaveLength(1)
    expect(tg.state.closing).toBe(false)
    expect(tg.state.haptics).toEqual(['success'])
  })

  it('checks the delivery address when the MainButton is pressed, as the form’s own button does', async () => {
    const tg = fakeMiniApp()
    const { user } = renderIssue({}, { telegram: tg.controls })
    await user.click(await screen.findByRole('radio', { name: 'Physical' }))
    await tg.pressMain()
    await screen.findByRole('heading', { name: 'Delivery address' })
    expect(tg.state.mainButton).toEqual({ text: 'Continue', enabled: true, busy: false })
    await tg.pressMain()
    expect(field('Recipient name')).toHaveAccessibleDescription('This is required.')
    expect(screen.getByRole('heading', { name: 'Delivery address' })).toBeVisible()
  })

  it('buzzes an error when issuing fails, and the MainButton tries again with the same request', async () => {
    const tg = fakeMiniApp()
    let calls = 0
    const { api } = renderIssue(
      { [CREATE]: () => (++calls === 1 ? problem(503, 'UNAVAILABLE') : created()) },
      { telegram: tg.controls },
    )
    await screen.findByRole('heading', { name: 'Choose the card' })
    await tg.pressMain()
    await screen.findByRole('heading', { name: 'Check and confirm' })
    await tg.pressMain()
    expect(await screen.findByRole('alert')).toBeVisible()
    expect(tg.state.haptics).toEqual(['error'])
    expect(tg.state.mainButton).toEqual({ text: 'Issue card', enabled: true, busy: false })

    await tg.pressMain()
    await waitFor(() => expect(api.to(CREATE)).toHaveLength(2))
    const [first, retry] = api.to(CREATE).map((call) => call.body)
    expect(retry).toEqual(first)
    await waitFor(() => expect(tg.state.haptics).toEqual(['error', 'success']))
  })
})
