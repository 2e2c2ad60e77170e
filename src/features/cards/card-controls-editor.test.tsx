import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defaultControls } from '../../../contract/card-controls.ts'
import { COUNTRIES, mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { setStepUpHandler } from '../../net/step-up.ts'
import CardPage from './card-page.tsx'
import { aCardDetail, aPage, CARD_ID } from './test-builders.ts'

const CARD = `/issuing/cards/${CARD_ID}`
const CONTROLS = `${CARD}/controls`

const routes = {
  [`GET ${CARD}`]: { body: aCardDetail() },
  [`GET ${CARD}/reveals`]: { body: aPage([]) },
  'GET /issuing/transactions/': { body: aPage([]) },
  'GET /location/countries': COUNTRIES,
}

let removeHandler: (() => void) | undefined
afterEach(() => removeHandler?.())

async function openControls(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Limits and controls' }))
  return screen.findByRole('group', { name: 'Ways to pay' })
}

describe('a card’s controls', () => {
  it('shows the stored set, and saves every kind of change as one set', async () => {
    const stored = { ...defaultControls(), blocked_merchants: ['Streaming Plus'] }
    const api = mockApi({
      ...routes,
      [`GET ${CONTROLS}`]: { body: stored },
      [`PUT ${CONTROLS}`]: (call) => ({ body: call.body }),
    })
    const { user } = renderApp(<CardPage id={CARD_ID} />)
    const channels = await openControls(user)
    expect(within(channels).getByRole('switch', { name: 'Online payments' })).toBeChecked()
    expect(within(channels).getByRole('switch', { name: 'Magnetic stripe' })).not.toBeChecked()
    expect(screen.getByText('Streaming Plus')).toBeVisible()

    await user.click(within(channels).getByRole('switch', { name: 'ATM withdrawals' }))
    await user.click(screen.getByRole('checkbox', { name: 'Gambling' }))
    const countries = screen.getByRole('group', { name: 'Blocked countries' })
    await user.selectOptions(within(countries).getByRole('combobox', { name: 'Country' }), 'US')
    await user.click(within(countries).getByRole('button', { name: 'Add' }))
    await user.click(screen.getByRole('button', { name: 'Remove Streaming Plus' }))
    const merchants = screen.getByRole('group', { name: 'Blocked shops' })
    await user.type(
      within(merchants).getByRole('textbox', { name: 'Shop’s name' }),
      ' Bet  Now{Enter}',
    )
    const limits = screen.getByRole('group', { name: 'Limits by kind of shop' })
    await user.selectOptions(within(limits).getByRole('combobox', { name: 'Counted' }), 'month')
    await user.type(within(limits).getByRole('textbox', { name: 'Limit, EUR' }), '200')
    await user.click(within(limits).getByRole('button', { name: 'Add limit' }))
    expect(within(limits).getByText('Travel: €200.00 per month')).toBeVisible()

    await user.click(screen.getByRole('button', { name: 'Save controls' }))
    expect(
      await screen.findByText('Controls saved. They apply from the next payment.'),
    ).toBeVisible()
    expect(api.to(`PUT ${CONTROLS}`).map((call) => call.body)).toEqual([
      {
        ...stored,
        channels: { ...stored.channels, atm: false },
        blocked_categories: ['gambling'],
        blocked_countries: ['US'],
        blocked_merchants: ['Bet Now'],
        category_limits: [{ category: 'travel', interval: 'month', amount: '200' }],
      },
    ])
  })

  it('checks a category limit’s amount and a shop’s name before adding them', async () => {
    mockApi({ ...routes, [`GET ${CONTROLS}`]: { body: defaultControls() } })
    const { user } = renderApp(<CardPage id={CARD_ID} />)
    await openControls(user)
    const limits = screen.getByRole('group', { name: 'Limits by kind of shop' })
    const amount = within(limits).getByRole('textbox', { name: 'Limit, EUR' })
    await user.type(amount, '0.001')
    await user.click(within(limits).getByRole('button', { name: 'Add limit' }))
    expect(amount).toHaveAccessibleDescription(
      'Enter an amount above zero, with at most 2 decimals.',
    )
    expect(within(limits).getByText('No limit by kind of shop.')).toBeVisible()
    const merchants = screen.getByRole('group', { name: 'Blocked shops' })
    await user.click(within(merchants).getByRole('button', { name: 'Add' }))
    expect(
      within(merchants).getByRole('textbox', { name: 'Shop’s name' }),
    ).toHaveAccessibleDescription('Enter the shop’s name as it appears in your payments.')
  })

  it('turning a channel back on goes through the second look, then saves', async () => {
    const stored = {
      ...defaultControls(),
      channels: { ...defaultControls().channels, online: false },
    }
    let asked = 0
    const api = mockApi({
      ...routes,
      [`GET ${CONTROLS}`]: { body: stored },
      [`PUT ${CONTROLS}`]: (call) =>
        asked === 0 ? problem(403, 'STEP_UP_REQUIRED', { methods: ['otp'] }) : { body: call.body },
    })
    const stepUp = vi.fn(async () => {
      asked += 1
      return true
    })
    removeHandler = setStepUpHandler(stepUp)
    const { user } = renderApp(<CardPage id={CARD_ID} />, { language: 'ru' })
    await user.click(await screen.findByRole('button', { name: 'Лимиты и ограничения' }))
    await user.click(await screen.findByRole('switch', { name: 'Оплата в интернете' }))
    await user.click(screen.getByRole('button', { name: 'Сохранить ограничения' }))
    expect(
      await screen.findByText('Ограничения сохранены. Они действуют со следующей оплаты.'),
    ).toBeVisible()
    expect(stepUp).toHaveBeenCalledWith(['otp'])
    expect(api.to(`PUT ${CONTROLS}`)).toHaveLength(2)
    expect(api.to(`PUT ${CONTROLS}`)[1]?.body).toMatchObject({ channels: { online: true } })
  })

  it('a refused save says why and keeps the changes', async () => {
    mockApi({
      ...routes,
      [`GET ${CONTROLS}`]: { body: defaultControls() },
      [`PUT ${CONTROLS}`]: problem(409, 'CARD_STATUS_CONFLICT'),
    })
    const { user } = renderApp(<CardPage id={CARD_ID} />)
    await openControls(user)
    await user.click(screen.getByRole('switch', { name: 'Contactless' }))
    await user.click(screen.getByRole('button', { name: 'Save controls' }))
    expect(await screen.findByRole('alert')).toBeVisible()
    expect(screen.getByRole('switch', { name: 'Contactless' })).not.toBeChecked()
  })
})
