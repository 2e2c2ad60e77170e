import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { Wallet } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href, paths } from '../../paths.ts'
import { useDisplayRates } from '../../queries/display-value.ts'
import { CsvButton } from '../../ui/csv-button.tsx'
import { PeopleIcon } from '../../ui/icons.tsx'
import { LinkList } from '../../ui/link-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { ListIcon, ReceiptIcon } from '../../ui/screen-icons.tsx'
import { Addresses } from './addresses.tsx'
import { BalanceList } from './balance-list.tsx'
import { csvUrl } from './csv-export.ts'
import { walletTypeLabel } from './labels.ts'
import { walletQuery } from './queries.ts'
import { totalBalance } from './total.ts'

/**
 * /wallets/:uuid — what the wallet holds (in all, and per currency), what
 * can be done with it, what happened in it, its deposit addresses. The money
 * actions and the activity are slots (src/app composes them in); the
 * activity gets the wallet's CSV export to show beside it.
 */
export default function WalletPage(props: {
  uuid: string
  actions?: ReactNode
  activity?: (csv: ReactNode) => ReactNode
}) {
  const { t, formatDate } = useI18n()
  const wallet = useQuery(walletQuery(props.uuid))
  const back = { href: paths.home, label: t('wallets.back') }

  if (wallet.isPending) return <Pending paused={wallet.isPaused} />
  if (wallet.isError) {
    return (
      <LoadError error={wallet.error} what="wallet" back={back} onRetry={() => wallet.refetch()} />
    )
  }

  const type = walletTypeLabel(t, wallet.data.type)
  return (
    <div className="stack">
      <PageHeader
        id="wallet-title"
        title={t('wallets.walletTitle', { type })}
        back={back}
        lead={t('wallets.createdOn', { date: formatDate(wallet.data.created_at) })}
      />
      <section className="card stack" aria-labelledby="wallet-balances">
        <div className="stack wallet-total">
          <h2 id="wallet-balances">{t('wallets.balances')}</h2>
          <WalletTotal wallet={wallet.data} />
        </div>
        <BalanceList balances={wallet.data.balances} expandable />
      </section>
      {props.actions}
      {props.activity?.(
        <CsvButton url={csvUrl(props.uuid, {})} fileName={`transactions-${props.uuid}.csv`} />,
      )}
      <nav className="card card-flush" aria-label={t('wallets.more')}>
        <LinkList
          rows={[
            {
              key: 'orders',
              to: href.orders({ wallet: props.uuid }),
              icon: ListIcon,
              title: t('orders.action.history'),
              explain: t('move.history'),
            },
            {
              key: 'statements',
              to: href.statements({ wallet: props.uuid }),
              icon: ReceiptIcon,
              title: t('wallets.statement'),
              explain: t('wallets.statementLead'),
            },
            {
              key: 'counterparties',
              to: href.counterparties(props.uuid),
              icon: PeopleIcon,
              title: t('cp.walletLink'),
              explain: t('move.counterparties'),
            },
          ]}
        />
      </nav>
      <Addresses walletUuid={props.uuid} />
    </div>
  )
}

/** The wallet's worth in the display currency, "≈" (rates move); nothing until the rates are in. */
function WalletTotal(props: { wallet: Wallet }) {
  const { t, language } = useI18n()
  const { rates, currency, unit } = useDisplayRates()
  if (!rates.data || !unit) return null
  const total = totalBalance([props.wallet], rates.data.rates, unit)
  const amount = formatMoney(language, { amount: total.amount, currency, chain: null })
  return (
    <p className="wallet-total-amount" data-testid="wallet-total">
      <span aria-hidden="true">{t('total.approx', { amount })}</span>
      <span className="visually-hidden">{t('total.approxLabel', { amount })}</span>
    </p>
  )
}
