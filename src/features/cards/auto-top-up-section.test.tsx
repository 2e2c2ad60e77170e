import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AutoTopUp } from '../../../contract/auto-top-up.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { aCurrency, aWallet, BTC_UUID, USDT_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { setStepUpHandler } from '../../net/step-up.ts'
import FiatAccountPage from './fiat-account-page.tsx'
import { ACCOUNT_ID, aCardDetail, aPage, CARD_WALLET, EUR_UUID } from './test-builders.ts'

const ACCOUNT = `GET /fiat-accounts/${CARD_WALLET}/${ACCOUNT_ID}`
const AUTO = `/fiat_accounts/${ACCOUNT_ID}/auto-top-up`

const anAccount = (overrides: Partial<FiatAccount> = {}): FiatAccount => ({
  ...aCardDetail().fiat_account,
  sub_account_type: 'balance',
  cards: [],
  ...overrides,
})

const off: AutoTopUp = {
  fiat_account_id: ACCOUNT_ID,
  enabled: false,
  below: null,
  top_up_to: null,
  from_wallet_uuid: null,
  from_currency: null,
  daily_cap: null,
  currency: 'EUR',
  topped_up_today: '0.00',
  last_run: null,
}

const routes = (auto: Route, account = anAccount()) => ({
  [ACCOUNT]: { body: account },
  [`${ACCOUNT}/transactions`]: { body: aPage([]) },
  'GET /wallets': { body: aPage([aWallet({ uuid: CARD_WALLET })]) },
  'GET /currencies': {
    body: aPage([
      aCurrency({
        uuid: EUR_UUID,
        code: 'EUR',
        name: 'Euro',
        type: 'fiat',
        decimals: 2,
        chain: null,
      }),
      aCurrency(),
      aCurrency({ uuid: BTC_UUID, code: 'BTC', name: 'Bitcoin', type: 'native', chain: 'bitcoin' }),
    ]),
  },
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
  [`GET ${AUTO}`]: auto,
})

const open = (language: 'en' | 'ru' = 'en') =>
  renderApp(<FiatAccountPage id={ACCOUNT_ID} />, {
    path: `/accounts/${ACCOUNT_ID}?wallet=${CARD_WALLET}`,
    language,
  })

let removeHandler: (() => void) | undefined
afterEach(() => removeHandler?.())

describe('a balance account’s auto top-up', () => {
  it('turns it on with amounts, wallet and currency, behind the second look', async () => {
    let asked = 0
    const api = mockApi({
      ...routes({ body: off }),
      [`PUT ${AUTO}`]: (call) =>
        asked === 0
          ? problem(403, 'STEP_UP_REQUIRED', { methods: ['otp'] })
          : { body: { ...off, ...(call.body as object) } },
    })
    const stepUp = vi.fn(async () => {
      asked += 1
      return true
    })
    removeHandler = setStepUpHandler(stepUp)
    const { user } = open()
    const section = await screen.findByRole('region', { name: 'Auto top-up' })
    expect(await within(section).findByText('None yet')).toBeVisible()
    await user.click(within(section).getByRole('switch', { name: 'Top up this account by itself' }))
    await user.type(
      within(section).getByRole('textbox', { name: 'When the balance falls below' }),
      '20',
    )
    await user.type(within(section).getByRole('textbox', { name: 'Top it up to' }), '100')
    await user.type(within(section).getByRole('textbox', { name: 'At most a day' }), '300')
    const currency = within(section).getByRole('combobox', { name: 'Pay with' })
    // The account's currency and the stablecoins: never another coin.
    expect(
      within(currency)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['EUR', 'USDT · Tron'])
    await user.selectOptions(currency, USDT_UUID)
    await user.click(within(section).getByRole('button', { name: 'Save auto top-up' }))

    expect(
      await within(section).findByText(
        'Saved. The next card payment that leaves less than €20.00 tops it up.',
      ),
    ).toBeVisible()
    expect(stepUp).toHaveBeenCalledWith(['otp'])
    expect(api.to(`PUT ${AUTO}`).map((call) => call.body)).toEqual([
      {
        enabled: true,
        below: '20',
        top_up_to: '100',
        daily_cap: '300',
        from_wallet_uuid: CARD_WALLET,
        from_currency: USDT_UUID,
      },
      expect.objectContaining({ enabled: true }),
    ])
  })

  it('checks the amounts before asking the server', async () => {
    const api = mockApi(routes({ body: off }))
    const { user } = open()
    const section = await screen.findByRole('region', { name: 'Auto top-up' })
    await user.click(
      await within(section).findByRole('switch', { name: 'Top up this account by itself' }),
    )
    await user.type(
      within(section).getByRole('textbox', { name: 'When the balance falls below' }),
      '50',
    )
    await user.type(within(section).getByRole('textbox', { name: 'Top it up to' }), '40')
    await user.click(within(section).getByRole('button', { name: 'Save auto top-up' }))
    expect(
      within(section).getByRole('textbox', { name: 'Top it up to' }),
    ).toHaveAccessibleDescription('Enter more than 50.')
    expect(
      within(section).getByRole('textbox', { name: 'At most a day' }),
    ).toHaveAccessibleDescription(/Enter an amount above zero\./)
    expect(api.to(`PUT ${AUTO}`)).toEqual([])
  })

  it('shows today’s use and why the last try failed, in Russian', async () => {
    mockApi(
      routes({
        body: {
          ...off,
          enabled: true,
          below: '20.00',
          top_up_to: '100.00',
          from_wallet_uuid: CARD_WALLET,
          from_currency: EUR_UUID,
          daily_cap: '300.00',
          topped_up_today: '80.00',
          last_run: {
            status: 'FAILED',
            amount: '90.00',
            order_id: null,
            failure: 'INSUFFICIENT_FUNDS',
            at: '2026-11-29T10:00:00Z',
          },
        },
      }),
    )
    open('ru')
    const section = await screen.findByRole('region', { name: 'Автопополнение' })
    expect((await within(section).findByText('Пополнено сегодня')).nextSibling).toHaveTextContent(
      /^80,00\s€ из 300,00\s€$/,
    )
    expect(within(section).getByText('Последнее пополнение').nextSibling).toHaveTextContent(
      /^Не удалось: в кошельке недостаточно денег · /,
    )
    expect(
      within(section).getByRole('switch', { name: 'Пополнять этот счёт автоматически' }),
    ).toBeChecked()
  })

  it('a prepaid account has none', async () => {
    const api = mockApi(routes({ body: off }, anAccount({ sub_account_type: 'prepaid' })))
    open()
    expect(await screen.findByRole('heading', { level: 1 })).toBeVisible()
    expect(screen.queryByRole('region', { name: 'Auto top-up' })).toBeNull()
    expect(api.to(`GET ${AUTO}`)).toEqual([])
  })

  it('a refused save says why', async () => {
    mockApi({ ...routes({ body: off }), [`PUT ${AUTO}`]: problem(422, 'INVALID_AUTO_TOP_UP') })
    const { user } = open()
    const section = await screen.findByRole('region', { name: 'Auto top-up' })
    await user.click(await within(section).findByRole('button', { name: 'Save auto top-up' }))
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Some of these auto top-up settings can’t be kept. Check the marked fields.',
    )
  })
})
