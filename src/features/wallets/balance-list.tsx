import type { Balance } from '../../../contract/wallets.ts'
import { formatAmount } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { CurrencyBadge } from '../../ui/currency-badge.tsx'

/**
 * A wallet's balances, one line per currency: what is available, and what is
 * pending only when there is some. Amounts are formatted from their decimal
 * strings, never through a float.
 */
export function BalanceList(props: { balances: Balance[] }) {
  const { t, language } = useI18n()
  if (props.balances.length === 0) return <p className="muted">{t('wallets.noBalances')}</p>
  return (
    <ul className="balances">
      {props.balances.map((balance) => (
        <li key={balance.currency_uuid} className="balance" data-testid="balance">
          <CurrencyBadge code={balance.currency} />
          <span className="balance-currency">
            <span className="balance-code">{balance.currency}</span>
            {balance.chain && <span className="muted balance-chain">{balance.chain}</span>}
          </span>
          <span className="balance-amounts">
            <span className="balance-available">
              <span className="visually-hidden">{t('wallets.available')}: </span>
              {formatAmount(language, balance.available, balance.decimals, balance.currency)}
            </span>
            {!isZero(balance.pending) && (
              <span className="balance-pending muted">
                {t('wallets.pendingAmount', {
                  amount: formatAmount(
                    language,
                    balance.pending,
                    balance.decimals,
                    balance.currency,
                  ),
                })}
              </span>
            )}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** "0", "0.00", "-0.0": zero whatever its scale, decided on the string itself. */
export const isZero = (amount: string) => /^[-+]?0*(\.0*)?$/.test(amount)
