import { Link } from 'wouter'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { href } from '../../app/paths.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { statusLabel, transactionTypeLabel } from './labels.ts'

/** One transaction as a line: what, when, how much, where it stands — linking to its detail. */
export function TransactionSummary(props: { row: WalletTransaction; decimals: number }) {
  const { t, language } = useI18n()
  const { row } = props
  const sign = row.type === 'withdrawal' ? '−' : '+'
  return (
    <Link href={href.transaction(row.wallet_uuid, row.uuid)} className="history-link">
      <span className="history-main">
        <span>{transactionTypeLabel(t, row.type)}</span>
        <span className="muted">{formatDateTime(language, row.created_at)}</span>
      </span>
      <span className="history-side">
        <span className={`amount amount-${row.type}`}>
          {sign}
          {formatMoney(language, { amount: row.amount, currency: row.currency })}
        </span>
        <span className={`status status-${row.status}`}>{statusLabel(t, row.status)}</span>
      </span>
    </Link>
  )
}
