import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aBalance, aPage, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { MiniAppProvider } from '../../telegram/mini-app.tsx'
import PaySomeonePage from './pay-someone-page.tsx'
import { ACTIVITY, ANNA, aTransfer, TRANSFER } from './people-fixtures.ts'
import { telegram } from './telegram-fixture.ts'
import { EUR, EUR_UUID } from './test-fixtures.ts'

function renderPay(routes: Record<string, Route> = {}, tg?: ReturnType<typeof telegram>) {
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
          ],
        }),
      ]),
    },
    'GET /currencies': { body: aPage([EUR]) },
    'GET /chains': { body: aPage([]) },
    'GET /people/recent': {
      body: {
        data: [
          {
            user_id: ANNA,
            display_name: 'Anna S.',
            initial: 'A',
            last_at: '2026-11-28T10:00:00Z',
          },
        ],
      },
    },
    'GET /people/lookup': { body: { found: false, display_name: null, initial: null } },
    'POST /transfers': { status: 201, body: aTransfer() },
    [`GET /transfers/${TRANSFER}`]: { body: aTransfer() },
    'POST /schedules': { status: 201, body: {} },
    ...routes,
  })
  const ui = tg ? (
    <MiniAppProvider controls={tg.controls}>
      <PaySomeonePage />
    </MiniAppProvider>
  ) : (
    <PaySomeonePage />
  )
  return { api, ...renderApp(ui, { path: '/pay-someone' }) }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('paying someone', () => {
  it('pays one of the recent people with a note, then says so and links the activity item', async () => {
    const { api, user } = renderPay()
    await user.click(await screen.findByRole('radio', { name: 'Anna S.' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount (EUR)' }), '20')
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'Dinner')
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(await screen.findByRole('heading', { name: 'Check and send' })).toBeInTheDocument()
    expect(screen.getByText('€20.00 to Anna S.')).toBeInTheDocument()
    expect(screen.getByText('Free')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByRole('heading', { name: 'Sent' })).toBeInTheDocument()
    expect(screen.getByText('You sent Anna S. €20.00.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See it in your activity' })).toHaveAttribute(
      'href',
      `/activity/${ACTIVITY}`,
    )
    const sent = api.to('POST /transfers')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toMatchObject({
      to: { user_id: ANNA },
      wallet_uuid: WALLET_UUID,
      currency_uuid: EUR_UUID,
      amount: '20',
      note: 'Dinner',
    })
    expect((sent[0]!.body as { request_id: string }).request_id).toBeTruthy()

    // "Repeat this": the same payment every week, from a week from now.
    await user.click(screen.getByRole('button', { name: 'Repeat this' }))
    await user.click(screen.getByRole('radio', { name: 'Every week, from a week from now' }))
    await user.click(screen.getByRole('button', { name: 'Set it to repeat' }))
    expect(await screen.findByText('Done: it repeats every week at this time.')).toBeInTheDocument()
    const schedule = api.to('POST /schedules')[0]!.body as Record<string, unknown>
    expect(schedule).toMatchObject({
      kind: 'transfer',
      template: {
        to: { user_id: ANNA },
        wallet_uuid: WALLET_UUID,
        currency_uuid: EUR_UUID,
        amount: '20',
        note: 'Dinner',
      },
      rrule: 'FREQ=WEEKLY',
    })
    const days = (Date.parse(schedule.starts_at as string) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6)
    expect(days).toBeLessThan(8)
  })

  it('looks a typed e-mail up and says the money will wait for them when nobody is found', async () => {
    const { api, user } = renderPay({
      'POST /transfers': {
        status: 201,
        body: aTransfer({
          status: 'AWAITING_CLAIM',
          counterparty: { name: 'new@example.com', initial: 'N', user_id: null },
          contact: 'new@example.com',
          expires_at: '2026-12-06T10:00:00Z',
        }),
      },
      [`GET /transfers/${TRANSFER}`]: {
        body: aTransfer({
          status: 'AWAITING_CLAIM',
          counterparty: { name: 'new@example.com', initial: 'N', user_id: null },
          contact: 'new@example.com',
          expires_at: '2026-12-06T10:00:00Z',
        }),
      },
    })
    await user.type(await screen.findByRole('textbox', { name: /Someone else/ }), 'new@example.com')
    expect(
      await screen.findByText(/the money waits 7 days for them to sign up/),
    ).toBeInTheDocument()
    expect(Object.fromEntries(api.to('GET /people/lookup').at(-1)!.query)).toEqual({
      email: 'new@example.com',
    })
    await user.type(screen.getByRole('textbox', { name: 'Amount (EUR)' }), '20')
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await user.click(await screen.findByRole('button', { name: 'Send' }))
    expect(
      await screen.findByRole('heading', { name: 'Waiting for them to sign up' }),
    ).toBeInTheDocument()
    expect(api.to('POST /transfers')[0]!.body).toMatchObject({ to: { email: 'new@example.com' } })
  })

  it('names a found person from the look-up', async () => {
    const { user } = renderPay({
      'GET /people/lookup': { body: { found: true, display_name: 'Bob M.', initial: 'B' } },
    })
    await user.type(await screen.findByRole('textbox', { name: /Someone else/ }), '@bob_martin')
    expect(await screen.findByText('Paying Bob M.')).toBeInTheDocument()
  })

  it('refuses more than the wallet holds before anything is sent', async () => {
    const { user } = renderPay()
    await user.click(await screen.findByRole('radio', { name: 'Anna S.' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount (EUR)' }), '301')
    expect(screen.getByText('That is more than you have, fees included.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Review' })).toBeDisabled()
  })

  it('words a refusal on the review and stays there', async () => {
    const { user } = renderPay({ 'POST /transfers': problem(422, 'CANNOT_PAY_YOURSELF') })
    await user.click(await screen.findByRole('radio', { name: 'Anna S.' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount (EUR)' }), '5')
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await user.click(await screen.findByRole('button', { name: 'Send' }))
    await waitFor(() => expect(screen.getByRole('alert')).toBeInTheDocument())
    expect(screen.getByRole('heading', { name: 'Check and send' })).toBeInTheDocument()
  })

  it('in the Mini App, the MainButton reviews and then sends', async () => {
    const tg = telegram()
    const { api, user } = renderPay({}, tg)
    await user.click(await screen.findByRole('radio', { name: 'Anna S.' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount (EUR)' }), '20')
    await waitFor(() =>
      expect(tg.state.mainButton).toMatchObject({ text: 'Review', enabled: true }),
    )
    act(() => tg.state.pressMain())
    await screen.findByRole('heading', { name: 'Check and send' })
    await waitFor(() => expect(tg.state.mainButton).toMatchObject({ text: 'Send', enabled: true }))
    act(() => tg.state.pressMain())
    await screen.findByRole('heading', { name: 'Sent' })
    expect(api.to('POST /transfers')).toHaveLength(1)
    expect(tg.state.haptics).toContain('success')
  })

  it('puts the review in the address; back from it is the form as it was, the person still picked', async () => {
    const { user, history } = renderPay()
    await user.click(await screen.findByRole('radio', { name: 'Anna S.' }))
    await user.type(screen.getByRole('textbox', { name: 'Amount (EUR)' }), '20')
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await screen.findByRole('heading', { name: 'Check and send' })
    expect(history.at(-1)).toBe('/pay-someone?step=review')
    await user.click(screen.getByRole('button', { name: 'Change' }))
    expect(await screen.findByRole('heading', { name: 'Pay someone' })).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Anna S.' })).toBeChecked()
    expect(screen.getByRole('textbox', { name: 'Amount (EUR)' })).toHaveValue('20')
    expect(screen.queryByRole('heading', { name: 'Check and send' })).toBeNull()
  })
})
