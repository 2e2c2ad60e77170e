import { netConfig } from '../../net/config.ts'

/** The v1 CSV export of a wallet's history, with the same filters as the list. */
export function csvUrl(walletUuid: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value)
  const suffix = search.size > 0 ? `?${search}` : ''
  return `${netConfig.v1Base}/wallets/transactions/${encodeURIComponent(walletUuid)}/csv${suffix}`
}
