import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { Link, useLocation } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href, paths } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { AccountsIcon } from '../../ui/icons.tsx'
import { LinkList } from '../../ui/link-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useChosenWallet, WalletSelect } from '../../ui/wallet-select.tsx'
import { CardLinks } from './card-visual.tsx'
import { cardsQuery } from './queries.ts'
import './cards.css'

/** /cards?wallet= — the cards of one wallet (the first, unless the link says). */
export default function CardsPage() {
  const { t } = useI18n()
  const titleId = useId()
  const [, navigate] = useLocation()
  const { wallets, list, wallet } = useChosenWallet()

  if (wallets.isPending) return <Pending paused={wallets.isPaused} />
  if (wallets.isError) {
    return (
      <LoadError
        error={wallets.error}
        what="wallet"
        back={{ href: paths.home, label: t('missing.home') }}
        onRetry={() => wallets.refetch()}
      />
    )
  }

  return (
    <section className="stack" aria-labelledby={titleId}>
      <PageHeader
        id={titleId}
        title={t('cards.title')}
        actions={
          wallet && (
            <Link href={href.newCard({ wallet })} className="button button-primary">
              {t('cards.issue')}
            </Link>
          )
        }
      />
      {!wallet ? (
        <NoWalletYet lead={t('cards.noWallet')} />
      ) : (
        <>
          <WalletSelect
            wallets={list}
            value={wallet}
            onChange={(uuid) => navigate(href.cards({ wallet: uuid }))}
          />
          <WalletCards wallet={wallet} />
          <nav className="card card-flush" aria-label={t('cards.accounts.link')}>
            <LinkList
              rows={[
                {
                  key: 'accounts',
                  to: href.fiatAccounts({ wallet }),
                  icon: AccountsIcon,
                  title: t('cards.accounts.link'),
                  explain: t('profile.accountsLead'),
                },
              ]}
            />
          </nav>
        </>
      )}
    </section>
  )
}

function WalletCards(props: { wallet: string }) {
  const { t } = useI18n()
  const cards = useQuery(cardsQuery(props.wallet))
  if (cards.isPending) return <Pending paused={cards.isPaused} />
  if (cards.isError) {
    return (
      <div className="stack">
        <ErrorSummary error={cards.error} />
        <Button variant="secondary" onClick={() => cards.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  }
  if (cards.data.data.length === 0) return <p>{t('cards.empty')}</p>
  return <CardLinks cards={cards.data.data} />
}
