import type { ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { href, paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useChosenWallet, WalletSelect } from '../../ui/wallet-select.tsx'
import { History } from './history.tsx'

/**
 * /activity?wallet= — the Activity tab: everything that happened in a wallet
 * (the first unless the link names one), with its filters and CSV, and the
 * way to the order history.
 */
export default function ActivityPage() {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const { wallets, list, wallet } = useChosenWallet()
  const chosen = list.find((item) => item.uuid === wallet)

  let body: ReactNode
  if (wallets.isPending) body = <Pending paused={wallets.isPaused} shape="rows" count={6} />
  else if (wallets.isError) {
    body = (
      <LoadError
        error={wallets.error}
        what="wallet"
        back={{ href: paths.home, label: t('missing.home') }}
        onRetry={() => wallets.refetch()}
      />
    )
  } else if (!chosen) body = <NoWalletYet />
  else {
    body = (
      <>
        <WalletSelect
          wallets={list}
          value={chosen.uuid}
          onChange={(uuid) => navigate(href.activity({ wallet: uuid }))}
        />
        <History key={chosen.uuid} walletUuid={chosen.uuid} balances={chosen.balances} />
      </>
    )
  }

  return (
    <div className="stack">
      <PageHeader
        id="activity-title"
        title={t('nav.activity')}
        actions={
          <Link href={href.orders(wallet ? { wallet } : {})} className="button button-secondary">
            {t('orders.action.history')}
          </Link>
        }
      />
      {body}
    </div>
  )
}
