import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { withMessages } from '../../i18n/i18n.tsx'
import { lockdownQuery } from './queries.ts'

/** Loaded with its words the first time it shows: most people are never locked down. */
const LockdownBanner = lazy(() => withMessages(import('./lockdown-banner.tsx'), 'security'))

/**
 * Reads whether the account is locked down (issue 30) for the signed-in
 * frame, and shows the banner while it is. The status is the security
 * section's query: starting or lifting there shows here at once. A chunk of
 * its own, apart from the entry; renders nothing when not locked.
 */
export default function LockdownGate() {
  const status = useQuery(lockdownQuery())
  if (!status.data?.active) return null
  return (
    <Suspense fallback={null}>
      <LockdownBanner status={status.data} />
    </Suspense>
  )
}
