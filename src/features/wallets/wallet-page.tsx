import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { href, paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ListIcon, PeopleIcon } from '../../ui/icons.tsx'
import { LinkList } from '../../ui/link-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { Addresses } from './addresses.tsx'
import { BalanceList } from './balance-list.tsx'
import { History } from './history.tsx'
import { walletTypeLabel } from './labels.ts'
import { walletQuery } from './queries.ts'

/**
 * /wallets/:uuid — balances, deposit addresses, history. The money actions
 * for this wallet are the `actions` slot (src/app composes them in).
 */
export default function WalletPage(props: { uuid: string; actions?: ReactNode }) {
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
        <h2 id="wallet-balances">{t('wallets.balances')}</h2>
        <BalanceList balances={wallet.data.balances} />
      </section>
      {props.actions}
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
      <History walletUuid={props.uuid} balances={wallet.data.balances} />
    </div>
  )
}
