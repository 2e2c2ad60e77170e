import { ProfileGreeting } from '../features/profile/greeting.tsx'
import { WalletsOverview } from '../features/wallets/wallets-overview.tsx'

/** Home composes features that never import each other (DESIGN.md): who you are, your wallets. */
export default function HomePage() {
  return (
    <div className="stack">
      <ProfileGreeting />
      <WalletsOverview />
    </div>
  )
}
