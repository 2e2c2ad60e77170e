import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderApp } from '../../tests/support/render-app.tsx'
import { formatAmount } from '../i18n/format.ts'
import { amountsHidden, HIDDEN_AMOUNT, setAmountsHidden } from '../i18n/hidden-amounts.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { formatMoney } from '../i18n/money.ts'
import { HideAmountsButton } from './hide-amounts-button.tsx'

/** An amount as any screen shows one: through the one formatter, in the app's language. */
function Balance() {
  const { language } = useI18n()
  return (
    <p data-testid="balance">{formatMoney(language, { amount: '1234.50', currency: 'EUR' })}</p>
  )
}

describe('hiding amounts', () => {
  afterEach(() => {
    setAmountsHidden(false)
    localStorage.clear()
  })

  it('the formatter answers "•••" for every amount while hidden; what is being typed stays shown', () => {
    setAmountsHidden(true)
    expect(formatMoney('en', { amount: '1234.50', currency: 'EUR' })).toBe(HIDDEN_AMOUNT)
    expect(formatMoney('ru', { amount: '0.00101885', currency: 'BTC' }, { sign: 'in' })).toBe(
      HIDDEN_AMOUNT,
    )
    expect(formatAmount('en', '1.5', 18, 'ETH')).toBe(HIDDEN_AMOUNT)
    expect(formatMoney('en', { amount: '12.5', currency: 'EUR' }, { shown: true })).toBe('€12.50')
    setAmountsHidden(false)
    expect(formatMoney('en', { amount: '1234.50', currency: 'EUR' })).toBe('€1,234.50')
  })

  it('one tap hides every amount on screen and the next shows them; the device remembers', async () => {
    const { user } = renderApp(
      <>
        <HideAmountsButton />
        <Balance />
      </>,
    )
    const button = screen.getByRole('button', { name: 'Hide amounts' })
    expect(button).toHaveAttribute('aria-pressed', 'false')
    expect(screen.getByTestId('balance')).toHaveTextContent('€1,234.50')
    await user.click(button)
    expect(button).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByTestId('balance')).toHaveTextContent(HIDDEN_AMOUNT)
    expect(screen.getByTestId('balance').textContent).not.toMatch(/\d/)
    expect(localStorage.getItem('amountsHidden')).toBe('1')
    expect(amountsHidden()).toBe(true)
    await user.click(button)
    expect(screen.getByTestId('balance')).toHaveTextContent('€1,234.50')
  })
})
