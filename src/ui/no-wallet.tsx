import { useI18n } from '../i18n/i18n.tsx'
import { walletTypeLabel } from '../i18n/wallet-names.ts'
import { useCreateWallet } from '../queries/create-wallet.ts'
import { useTenantConfig } from '../queries/tenant.ts'
import { Button } from './components.tsx'
import { ErrorSummary } from './error-summary.tsx'
import { useNeedsServer } from './online.tsx'
import { WalletIcon } from './screen-icons.tsx'

/**
 * Where a screen needs a wallet and the person has none (a tenant without
 * personal wallets opens none at sign-up): the one step that gets them
 * further, done here — a Personal wallet in one tap, the screen then shows.
 */
export function NoWalletYet(props: { lead?: string }) {
  const { t } = useI18n()
  const create = useCreateWallet()
  const server = useNeedsServer()
  const offered = useTenantConfig()?.wallet_types
  // Personal where the tenant offers it (or while its offer is unknown), else its first type.
  const type = !offered || offered.includes('personal') ? 'personal' : offered[0]
  return (
    <section className="card empty-state" aria-labelledby="no-wallet-title">
      <span className="empty-state-icon">
        <WalletIcon size={28} />
      </span>
      <h2 id="no-wallet-title">{t('noWallet.title')}</h2>
      <p className="lead">{props.lead ?? t('noWallet.lead')}</p>
      <ErrorSummary error={create.error} />
      {type && (
        <Button
          busy={create.isPending}
          onClick={() => create.mutate(type)}
          {...server.disabledProps}
        >
          {t('noWallet.create', { type: walletTypeLabel(t, type) })}
        </Button>
      )}
      {server.reason}
    </section>
  )
}
