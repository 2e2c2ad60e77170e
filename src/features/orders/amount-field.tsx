import { useState } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { TextField } from '../../ui/fields.tsx'
import { amountProblem, readAmount } from './amount-input.ts'

/** The currency an amount is typed in. */
export interface AmountCurrency {
  code: string
  decimals: number
}

/**
 * One amount typed in one currency, read as the API's decimal string
 * (amount-input.ts) — the field of a payment to a person and of a request.
 * `available`: what the paying wallet holds, said under the field and
 * checked against (undefined when nothing leaves a wallet: a request).
 */
export function useAmountField(props: {
  currency: AmountCurrency | undefined
  available?: string | undefined
  label: string
}) {
  const { t, language } = useI18n()
  const [text, setText] = useState('')
  const { currency, available } = props
  const reading = currency ? readAmount(text, currency.decimals, language) : undefined
  const amount = reading?.ok ? reading.amount : undefined
  const overspent =
    amount !== undefined &&
    available !== undefined &&
    compare(parseDecimal(amount), parseDecimal(available)) > 0
  const error =
    reading && !reading.ok && reading.problem !== 'empty' && currency
      ? amountProblem(
          t,
          reading,
          { currency: currency.code, decimals: currency.decimals },
          language,
        )
      : overspent
        ? t('orders.amount.overspent')
        : undefined
  const field = (
    <TextField
      label={
        currency
          ? t('orders.amount.label', { label: props.label, currency: currency.code })
          : props.label
      }
      adornment={currency?.code}
      inputMode="decimal"
      autoComplete="off"
      placeholder="0"
      name="amount"
      value={text}
      onChange={(event) => setText(event.target.value)}
      disabled={!currency}
      error={error}
      hint={
        available !== undefined && currency
          ? t('orders.amount.available', {
              amount: formatMoney(language, { amount: available, currency: currency.code }),
            })
          : undefined
      }
    />
  )
  /** The amount to send: undefined while the field is empty or says what to fix. */
  return { field, amount: error ? undefined : amount }
}
