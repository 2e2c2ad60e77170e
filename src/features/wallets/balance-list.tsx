import { useState } from 'react'
import type { Balance } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { useDisplayValue } from '../../queries/display-value.ts'
import { useChainName } from '../../queries/wallets.ts'
import { Button } from '../../ui/components.tsx'
import { CurrencyBadge } from '../../ui/currency-badge.tsx'

/**
 * A wallet's balances, one line per currency: the code over its chain's name,
 * what is available over its value in the display currency, and what is
 * pending only when there is some. Held currencies only; the empty ones
 * behind "Show all" where `expandable` (a wallet's own page).
 */
export function BalanceList(props: { balances: Balance[]; expandable?: boolean }) {
  const { t, language } = useI18n()
  const displayValue = useDisplayValue()
  const chainName = useChainName()
  const [all, setAll] = useState(false)
  const held = props.balances.filter(
    (balance) => !isZero(balance.available) || !isZero(balance.pending),
  )
  const empty = props.balances.filter((balance) => !held.includes(balance))
  const shown = all ? [...held, ...empty] : held
  const toggle = props.expandable && empty.length > 0 && (
    <Button variant="quiet" aria-expanded={all} onClick={() => setAll((value) => !value)}>
      {all ? t('money.showHeld') : t('money.showAll', { count: empty.length })}
    </Button>
  )
  if (shown.length === 0) {
    return (
      <div className="stack">
        <p className="muted">{t('wallets.noBalances')}</p>
        {toggle}
      </div>
    )
  }
  return (
    <div className="stack balance-block">
      <ul className="balances">
        {shown.map((balance) => {
          const value = isZero(balance.available)
            ? undefined
            : displayValue({ ...balance, amount: balance.available })
          return (
            <li key={balance.currency_uuid} className="balance" data-testid="balance">
              <CurrencyBadge code={balance.currency} />
              <span className="balance-currency">
                <span className="balance-code">{balance.currency}</span>
                {balance.chain && (
                  <span className="muted balance-chain">{chainName(balance.chain)}</span>
                )}
              </span>
              <span className="balance-amounts">
                <span className="balance-available">
                  <span className="visually-hidden">{t('wallets.available')}: </span>
                  {formatMoney(language, { ...balance, amount: balance.available })}
                </span>
                {value && <span className="balance-value muted">{value}</span>}
                {!isZero(balance.pending) && (
                  <span className="balance-pending muted">
                    {t('wallets.pendingAmount', {
                      amount: formatMoney(language, { ...balance, amount: balance.pending }),
                    })}
                  </span>
                )}
              </span>
            </li>
          )
        })}
      </ul>
      {toggle && <div>{toggle}</div>}
    </div>
  )
}

/** "0", "0.00", "-0.0": zero whatever its scale, decided on the string itself. */
export const isZero = (amount: string) => /^[-+]?0*(\.0*)?$/.test(amount)
