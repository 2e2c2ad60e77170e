import { QuietStart } from '../features/activity/activity-feed.tsx'
import { ActivityCard } from '../features/activity/recent-activity.tsx'
import { MoneyActions } from '../features/orders/money-actions.tsx'
import WalletPage from '../features/wallets/wallet-page.tsx'
import { useI18n } from '../i18n/i18n.tsx'
import { href } from '../paths.ts'

/**
 * A wallet with the money actions for it and what happened in it: three
 * features composed here, as home composes them.
 */
export default function WalletScreen(props: { uuid: string }) {
  const { t } = useI18n()
  return (
    <WalletPage
      uuid={props.uuid}
      actions={<MoneyActions wallet={props.uuid} />}
      activity={(csv) => (
        <ActivityCard
          title={t('activity.title')}
          filters={{ wallet_uuid: props.uuid }}
          perspective={{ wallet: props.uuid }}
          seeAll={href.activity({ wallet: props.uuid })}
          count={8}
          actions={csv}
          empty={<QuietStart text={t('activity.emptyWallet')} />}
        />
      )}
    />
  )
}
