import { CardsShortcut } from '../features/cards/cards-shortcut.tsx'
import { MoneyActions } from '../features/orders/money-actions.tsx'
import { ProfileGreeting } from '../features/profile/greeting.tsx'
import { RecentActivity } from '../features/wallets/recent-activity.tsx'
import { TotalBalance } from '../features/wallets/total-balance.tsx'
import { WalletsOverview } from '../features/wallets/wallets-overview.tsx'
import { useOffers } from '../queries/tenant.ts'

/** Home composes features that never import each other (DESIGN.md): who you are, what you have in all, what you can do with it, your wallets, what happened last. */
export default function HomePage() {
  const cards = useOffers('cards')
  return (
    <div className="stack">
      <ProfileGreeting />
      <TotalBalance />
      <MoneyActions />
      {cards && <CardsShortcut />}
      <WalletsOverview />
      <RecentActivity />
    </div>
  )
}
