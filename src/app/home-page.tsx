import { RecentActivity } from '../features/activity/recent-activity.tsx'
import { MoneyActions } from '../features/orders/money-actions.tsx'
import { ProfileGreeting } from '../features/profile/greeting.tsx'
import { TotalBalance } from '../features/wallets/total-balance.tsx'
import { WalletsOverview } from '../features/wallets/wallets-overview.tsx'
import { NextSteps } from './next-steps.tsx'

/**
 * Home composes features that never import each other (docs/architecture.md): money
 * first — what you have in all and what you can do with it — then what to do
 * next, your wallets, and what happened. Two columns on a desktop: the money
 * on the left, the activity on the right.
 */
export default function HomePage() {
  return (
    <div className="home">
      <div className="home-main stack">
        <ProfileGreeting />
        <TotalBalance />
        <MoneyActions />
        <NextSteps />
        <WalletsOverview />
      </div>
      <div className="home-side stack">
        <RecentActivity />
      </div>
    </div>
  )
}
