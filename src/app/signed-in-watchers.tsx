import { useProfileLanguage } from '../features/profile/profile-language.ts'
import LockdownGate from '../features/security/lockdown-gate.tsx'

export { NotificationBell } from '../features/notifications/bell.tsx'

/**
 * What the signed-in frame keeps watching, one chunk apart from the entry:
 * the account's lockdown (its banner while it lasts) and the language kept
 * on the profile.
 */
export default function SignedInWatchers() {
  useProfileLanguage()
  return <LockdownGate />
}
