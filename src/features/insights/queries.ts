import { queryOptions } from '@tanstack/react-query'
import type {
  BalanceHistory,
  BalanceHistoryQuery,
  SpendingInsights,
  SpendingQuery,
} from '../../../contract/insights.ts'
import { api } from '../../net/api.ts'

/*
 * Insights (issue 31): what the Insights screen reads. Kept on the device
 * like every answer (src/storage/query-persister.ts), so the screen reads
 * offline what it last showed. A period's figures move only as money does:
 * read again when the screen comes back, not on a timer.
 */

export const insightKeys = {
  all: ['insights'] as const,
  spending: (query: SpendingQuery) => [...insightKeys.all, 'spending', query] as const,
  balances: (query: BalanceHistoryQuery) => [...insightKeys.all, 'balances', query] as const,
}

export const spendingQuery = (query: SpendingQuery) =>
  queryOptions({
    queryKey: insightKeys.spending(query),
    queryFn: ({ signal }) =>
      api.v2.get<SpendingInsights>('/insights/spending', { signal, query: { ...query } }),
  })

export const balanceHistoryQuery = (query: BalanceHistoryQuery) =>
  queryOptions({
    queryKey: insightKeys.balances(query),
    queryFn: ({ signal }) =>
      api.v2.get<BalanceHistory>('/insights/balance-history', { signal, query: { ...query } }),
  })
