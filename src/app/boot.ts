import type { QueryClient } from '@tanstack/react-query'
import { hasSession } from '../net/session.ts'
import { paths } from '../paths.ts'
import { tenantConfigQuery } from '../queries/tenant.ts'
import { meQuery, userDataQuery } from '../queries/user.ts'
import { currenciesQuery, ratesQuery, walletsQuery } from '../queries/wallets.ts'

/**
 * Everything the first screen needs, asked for at once (issue 16): the
 * tenant's configuration, the user, and on home the wallets, the rates and
 * the catalogue, all in one round trip, while the screen's own chunk is still
 * on its way — instead of each component asking once it has mounted, the
 * configuration first (the layout) and the balances a round trip later.
 *
 * Waits for the stored cache (`restored`): a warm or offline start has
 * painted from it already and these only revalidate; offline they wait
 * paused (networkMode 'online') and never fail first. The components ask for
 * the same keys and share these requests. Nothing for someone signed out.
 */
export async function prefetchFirstScreen(
  queryClient: QueryClient,
  restored: Promise<void>,
  path: string = location.pathname,
  signedIn: () => Promise<boolean> = hasSession,
): Promise<void> {
  // The session is read while the cache is restored, not after: on a slow
  // phone that read waits behind the first render, and the reads would leave
  // after the layout's own, a round trip late.
  const [, session] = await Promise.all([restored, signedIn()])
  if (!session) return
  const asked = [
    queryClient.prefetchQuery(tenantConfigQuery()),
    queryClient.prefetchQuery(meQuery()),
  ]
  if (path === paths.home) {
    asked.push(
      queryClient.prefetchQuery(walletsQuery()),
      // In one base whatever the person's currency turns out to be: it is worked out from them.
      queryClient.prefetchQuery(ratesQuery()),
      queryClient.prefetchQuery(userDataQuery()),
      queryClient.prefetchQuery(currenciesQuery()),
    )
  }
  await Promise.all(asked)
}
