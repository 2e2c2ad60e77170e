import { cleanup, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RateList } from '../../contract/rates.ts'
import { mockApi } from '../../tests/support/mock-api.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import type { Money } from '../i18n/money.ts'
import { useDisplayValue } from './display-value.ts'

const RATES: RateList = {
  base: 'USD',
  as_of: '2026-01-05T12:00:00.000Z',
  rates: [
    { code: 'BTC', rate: '97342.17' },
    { code: 'USD', rate: '1.00' },
    { code: 'EUR', rate: '1.25' },
  ],
}

/** What the line beside each amount says, or "—" when it says nothing. */
function Values(props: { amounts: Money[] }) {
  const displayValue = useDisplayValue()
  return (
    <ul>
      {props.amounts.map((money) => (
        <li key={`${money.amount} ${money.currency}`}>{displayValue(money) ?? '—'}</li>
      ))}
    </ul>
  )
}

beforeEach(() => localStorage.clear())
afterEach(cleanup)

describe('an amount’s value in the display currency', () => {
  it('is worked out from the rates in the one base: amount × its rate ÷ the currency’s, to the cent', async () => {
    localStorage.setItem('displayCurrency', 'EUR')
    const api = mockApi({ 'GET /rates': { body: RATES } })
    renderApp(
      <Values
        amounts={[
          { amount: '0.5', currency: 'BTC', chain: 'bitcoin' },
          { amount: '10.00', currency: 'USD', chain: null },
          { amount: '10.00', currency: 'EUR', chain: null },
          { amount: '3', currency: 'DOGE', chain: 'solana' },
        ]}
      />,
    )
    const lines = await screen.findAllByRole('listitem')
    // 0.5 × 97342.17 ÷ 1.25 = 38936.868; 10 ÷ 1.25 = 8; euros need no second line; no rate, none.
    await expect
      .poll(() => lines.map((line) => line.textContent))
      .toEqual(['€38,936.87', '€8.00', '—', '—'])
    expect(api.to('GET /rates').map((call) => call.query.get('base'))).toEqual(['USD'])
  })
})
