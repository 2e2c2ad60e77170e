import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending } from '../../ui/online.tsx'
import { ChevronRightIcon } from '../../ui/screen-icons.tsx'
import { BalanceList } from './balance-list.tsx'
import { CreateWallet } from './create-wallet.tsx'
import { walletTypeLabel } from './labels.ts'
import { walletsQuery } from './queries.ts'

/**
 * Every wallet with its balances, and "Create wallet". The converted total is
 * TotalBalance, beside it on the home screen.
 */
export function WalletsOverview() {
  const { t } = useI18n()
  const wallets = useQuery(walletsQuery())

  return (
    <section className="stack" aria-labelledby="wallets-title">
      <h2 id="wallets-title">{t('wallets.title')}</h2>
      {wallets.isPending ? (
        <Pending paused={wallets.isPaused} shape="card" />
      ) : wallets.isError ? (
        <div className="stack">
          <ErrorSummary error={wallets.error} />
          <Button variant="secondary" onClick={() => wallets.refetch()}>
            {t('error.retry')}
          </Button>
        </div>
      ) : wallets.data.data.length === 0 ? (
        <NoWalletYet lead={t('wallets.empty')} />
      ) : (
        <ul className="wallet-list">
          {wallets.data.data.map((wallet) => {
            const type = walletTypeLabel(t, wallet.type)
            return (
              <li key={wallet.uuid} className="card wallet-card" data-testid="wallet">
                <h3 className="wallet-card-title">
                  <Link href={href.wallet(wallet.uuid)} className="wallet-card-link">
                    <span>{t('wallets.walletTitle', { type })}</span>
                    <ChevronRightIcon size={20} />
                  </Link>
                </h3>
                <BalanceList balances={wallet.balances} />
              </li>
            )
          })}
        </ul>
      )}
      {wallets.data && wallets.data.data.length > 0 && <CreateWallet />}
    </section>
  )
}
