import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { href, paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { Addresses } from './addresses.tsx'
import { BalanceList } from './balance-list.tsx'
import { History } from './history.tsx'
import { walletTypeLabel } from './labels.ts'
import { walletQuery } from './queries.ts'

/** /wallets/:uuid — balances, deposit addresses, history. */
export default function WalletPage(props: { uuid: string }) {
  const { t, formatDate } = useI18n()
  const wallet = useQuery(walletQuery(props.uuid))

  if (wallet.isPending) return <Pending paused={wallet.isPaused} />
  if (wallet.isError) {
    return (
      <div className="stack">
        <ErrorSummary error={wallet.error} />
        <Button variant="secondary" onClick={() => wallet.refetch()}>
          {t('error.retry')}
        </Button>
        <Link href={paths.home}>{t('wallets.back')}</Link>
      </div>
    )
  }

  const type = walletTypeLabel(t, wallet.data.type)
  return (
    <div className="stack">
      <p>
        <Link href={paths.home}>← {t('wallets.back')}</Link>
      </p>
      <section className="card stack" aria-labelledby="wallet-title">
        <h1 id="wallet-title">{t('wallets.walletTitle', { type })}</h1>
        <p className="muted">
          {t('wallets.createdOn', { date: formatDate(wallet.data.created_at) })}
        </p>
        <h2>{t('wallets.balances')}</h2>
        <BalanceList balances={wallet.data.balances} />
        <nav aria-label={t('orders.action.label')} className="row">
          <Link href={href.send({ wallet: props.uuid })} className="button button-secondary">
            {t('orders.action.send')}
          </Link>
          <Link href={href.exchange({ wallet: props.uuid })} className="button button-secondary">
            {t('orders.action.exchange')}
          </Link>
          <Link href={href.deposit({ wallet: props.uuid })} className="button button-secondary">
            {t('orders.action.deposit')}
          </Link>
          <Link href={href.topUp({ wallet: props.uuid })} className="button button-secondary">
            {t('orders.action.topUp')}
          </Link>
          <Link href={href.orders({ wallet: props.uuid })} className="button button-secondary">
            {t('orders.action.history')}
          </Link>
        </nav>
        <p>
          <Link href={href.counterparties(props.uuid)}>{t('cp.walletLink')}</Link>
        </p>
      </section>
      <Addresses walletUuid={props.uuid} />
      <History walletUuid={props.uuid} balances={wallet.data.balances} />
    </div>
  )
}
