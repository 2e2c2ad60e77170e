import { onlineManager } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  aCurrency,
  aPage,
  aQuote,
  BTC_UUID,
  USDT_UUID,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { problem } from '../../../tests/support/mock-api.ts'
import {
  afterFlowTest,
  amountField,
  DIRECTION,
  quoteFor,
  renderExchange,
  reviewButton,
  USDT,
} from './exchange-fixture.tsx'
import { BTC } from './test-fixtures.ts'

afterEach(afterFlowTest)

describe('the live quote', () => {
  it('waits for typing to settle, then asks once for what was typed', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '250')
    await screen.findByText('0.0025 BTC')
    const calcs = api.to('GET /orders/calc')
    expect(calcs).toHaveLength(1)
    expect(Object.fromEntries(calcs[0]!.query)).toEqual({
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      wallet_uuid: WALLET_UUID,
      from_uuid: USDT_UUID,
      to_uuid: BTC_UUID,
      amount_from: '250',
    })
    // "You pay / you receive", each fee on its own line, the total and the rate.
    const price = screen.getByRole('region', { name: 'Price' })
    expect(within(price).getByText('You pay').nextSibling).toHaveTextContent('250 USDT')
    expect(within(price).getByText('Fee').nextSibling).toHaveTextContent('1 USDT')
    expect(within(price).getByText('Fee (0.5 %)').nextSibling).toHaveTextContent('0.5 USDT')
    expect(within(price).getByText('Total charged').nextSibling).toHaveTextContent('251.5 USDT')
    expect(within(price).getByText('Rate').nextSibling).toHaveTextContent('1 BTC = 63,291.139 USDT')
    expect(within(price).getByText('You receive').nextSibling).toHaveTextContent('0.0025 BTC')
    expect(screen.getByRole('textbox', { name: 'You receive (BTC)' })).toHaveValue('0.00250')
    expect(screen.getByText(/^Price fixed for \d+ s$/)).toBeInTheDocument()
  })

  it('aborts the calc still on its way when the amount changes', async () => {
    const { api, user } = renderExchange({
      'GET /orders/calc': (call) =>
        call.query.get('amount_from') === '1'
          ? new Promise(() => {}) // never answers: only an abort ends it
          : { body: quoteFor(call) },
    })
    const field = await screen.findByRole('textbox', { name: 'You pay (USDT)' })
    await user.type(field, '1')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))
    await user.type(field, '5')
    await screen.findByText('0.0015 BTC')

    const signals = api.fetch.mock.calls
      .filter(([input]) => String(input).includes('/orders/calc'))
      .map(([, init]) => init?.signal)
    expect(signals).toHaveLength(2)
    expect(signals[0]?.aborted).toBe(true)
    expect(signals[1]?.aborted).toBe(false)
  })

  it('asks for what must arrive when the other side is typed', async () => {
    const { api, user } = renderExchange({
      'GET /orders/calc': (call) => ({
        body: quoteFor(call, {
          from: { ...aQuote().from, amount: '63.291139' },
          to: { ...aQuote().to, amount: call.query.get('amount_to')! },
        }),
      }),
    })
    await user.type(await screen.findByRole('textbox', { name: 'You receive (BTC)' }), '0.001')
    await waitFor(() => expect(amountField()).toHaveValue('63.291139'))
    const calc = api.to('GET /orders/calc')[0]!
    expect(calc.query.get('amount_to')).toBe('0.001')
    expect(calc.query.has('amount_from')).toBe(false)
  })

  it('gets a new quote by itself when the one on screen expires', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '100')
    await screen.findByText(/^Price fixed for \d+ s$/)
    expect(api.to('GET /orders/calc')).toHaveLength(1)

    vi.setSystemTime(Date.now() + 30_000)
    // The countdown notices at its next real 1 s tick, then asks again: room for a busy machine.
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(2), { timeout: 5_000 })
    await waitFor(() => expect(reviewButton()).toBeEnabled())
  })

  it('says why there is no price on the amount: below the minimum, and which it is', async () => {
    const { api, user } = renderExchange({
      'GET /orders/calc': problem(422, 'AMOUNT_TOO_SMALL', {
        errors: [{ field: '/querystring/amount_from', message: 'below the minimum' }],
        limit: { amount: '10', currency: 'USDT' },
      }),
    })
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '1')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^The minimum for this transfer is 10\sUSDT\.$/,
    )
    await waitFor(() => expect(amountField()).toHaveAttribute('aria-invalid', 'true'))
    expect(amountField()).toHaveAccessibleDescription(
      expect.stringMatching(/The minimum for this transfer is 10\sUSDT\./),
    )
    expect(reviewButton()).toBeDisabled()
    // Asking again cannot change the minimum: nothing offers to.
    expect(screen.queryByRole('button', { name: 'Get the price again' })).toBeNull()
    expect(api.to('GET /orders/calc')).toHaveLength(1)
  })

  it('refuses an English decimal comma instead of reading "0,001" as 1', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You receive (BTC)' }), '0,001')
    const field = screen.getByRole('textbox', { name: 'You receive (BTC)' })
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('Use a dot for decimals, like 0.001.'),
    )
    await user.clear(field)
    await user.type(field, '1,234')
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('“1,234” can be read two ways. Write 1.234 for a fraction or 1234'),
    )
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(api.to('GET /orders/calc')).toEqual([])
  })

  it('refuses more than the wallet has, fees included, before anything is sent', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '499')
    await screen.findByText('0.00499 BTC')
    expect(amountField()).toHaveAccessibleDescription(
      'Available: 500\u00a0USDT That is more than you have, fees included.',
    )
    expect(reviewButton()).toBeDisabled()
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toEqual([])
  })

  it('says “more than you have” for more than the wallet holds, not the price’s maximum it also crosses', async () => {
    const { user } = renderExchange({
      'GET /orders/calc': {
        status: 422,
        body: {
          type: 'about:blank',
          title: 'Amount too large',
          status: 422,
          code: 'AMOUNT_TOO_LARGE',
          detail: 'At most 100000 USDT.',
          limit: { amount: '100000', currency: 'USDT' },
        },
      },
    })
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '250000')
    await waitFor(() =>
      expect(amountField()).toHaveAccessibleDescription(
        'Available: 500\u00a0USDT That is more than you have, fees included.',
      ),
    )
    expect(reviewButton()).toBeDisabled()
  })

  it('checks the decimals of the currency typed in', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '1.1234567')
    expect(amountField()).toHaveAccessibleDescription(
      expect.stringContaining('USDT has at most 6 decimal places.'),
    )
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(api.to('GET /orders/calc')).toEqual([])
  })
})

describe('offline', () => {
  it('cannot review or confirm, and says why', async () => {
    const { api, user } = renderExchange()
    await user.type(await screen.findByRole('textbox', { name: 'You pay (USDT)' }), '100')
    await waitFor(() => expect(reviewButton()).toBeEnabled())
    await user.click(reviewButton())
    await screen.findByRole('heading', { name: 'Check and confirm' })

    act(() => onlineManager.setOnline(false))
    const confirm = screen.getByRole('button', { name: 'Confirm' })
    expect(confirm).toBeDisabled()
    expect(confirm).toHaveAccessibleDescription('You are offline. This needs a connection.')
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(reviewButton()).toBeDisabled()
    expect(api.to('POST /orders/EXCHANGE_CRYPTO_INTERNAL')).toEqual([])
  })

  it('waits for the connection instead of quoting', async () => {
    const { api, user } = renderExchange()
    const field = await screen.findByRole('textbox', { name: 'You pay (USDT)' })
    act(() => onlineManager.setOnline(false))
    await user.type(field, '100')
    expect(
      await screen.findByText(
        'You are offline. Prices need a connection; this one loads when it is back.',
      ),
    ).toBeInTheDocument()
    expect(api.to('GET /orders/calc')).toEqual([])
  })
})

describe('in Russian', () => {
  it('reads a decimal comma and speaks the flow', async () => {
    const { api, user } = renderExchange({}, 'ru')
    await user.type(await screen.findByRole('textbox', { name: 'Вы отдаёте (USDT)' }), '12,5')
    await waitFor(() => expect(api.to('GET /orders/calc')).toHaveLength(1))
    expect(api.to('GET /orders/calc')[0]!.query.get('amount_from')).toBe('12.5')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Проверить' })).toBeEnabled())
    expect(screen.getByText('Всего спишем')).toBeInTheDocument()
  })
})

describe('the exchange’s currency picker', () => {
  it('lists what the wallet holds, the rest behind “Show all”', async () => {
    const ETH = aCurrency({
      uuid: '0190b0a4-0000-7000-8000-0000000000e1',
      code: 'ETH',
      name: 'Ether',
      type: 'native',
      decimals: 18,
      chain: 'ethereum',
    })
    const { user } = renderExchange({ 'GET /currencies': { body: aPage([BTC, ETH, USDT]) } })
    const from = await screen.findByRole('combobox', { name: 'From' })
    const codes = () =>
      within(from)
        .getAllByRole('option')
        .map((option) => option.textContent?.split(' ')[0])
    expect(codes()).toEqual(['USDT'])
    const showAll = screen.getByRole('button', { name: 'Show all (2 more)' })
    expect(showAll).toHaveAttribute('aria-expanded', 'false')
    await user.click(showAll)
    // Held first, then the rest.
    expect(codes()).toEqual(['USDT', 'BTC', 'ETH'])
    await user.click(screen.getByRole('button', { name: 'Show only what you hold' }))
    expect(codes()).toEqual(['USDT'])
  })
})

describe('the exchange’s amount', () => {
  it('offers “Max”: the most the wallet pays for with the fee on top, quoted at once', async () => {
    const { api, user } = renderExchange()
    await user.click(await screen.findByRole('button', { name: 'Max: 496.517411\u00a0USDT' }))
    expect(amountField()).toHaveValue('496.517411')
    await waitFor(() =>
      expect(api.to('GET /orders/calc').at(-1)?.query.get('amount_from')).toBe('496.517411'),
    )
  })

  it('reads its limits rounded to what people read: the minimum up, the maximum down', async () => {
    renderExchange({
      'GET /exchange/': {
        body: aPage([{ ...DIRECTION, min_amount: '5.000836', max_amount: '100016.702789' }]),
      },
    })
    expect(await screen.findByText(/From 5\.01 USDT to 100,016\.7 USDT/)).toBeInTheDocument()
  })
})
