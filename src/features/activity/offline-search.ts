import type { ActivityItem, ActivityPage } from '../../../contract/activity.ts'
import type { ActivityFilters } from '../../queries/activity.ts'
import { compare, parseDecimal } from '../../ui/decimal.ts'

/*
 * Searching with no connection (issue 31): the feed's pages this device has
 * kept — every feed and filter it read — searched here with the API's own
 * rules (contract ActivityQuery): words in the names, codes, last four,
 * reference, address, hash or note; type, status, currency; when; how much. What
 * was never read cannot be found, and the screen says so.
 */

/** Every item in the kept answers of the feed (pages of any feed, recent lists, details), once, newest first. */
export function cachedItems(answers: readonly unknown[]): ActivityItem[] {
  const byId = new Map<string, ActivityItem>()
  const add = (item: ActivityItem) => byId.set(item.id, item)
  for (const answer of answers) {
    if (!answer || typeof answer !== 'object') continue
    if ('pages' in answer && Array.isArray(answer.pages)) {
      for (const page of answer.pages as ActivityPage[]) page.data.forEach(add)
    } else if ('data' in answer && Array.isArray(answer.data)) {
      ;(answer.data as ActivityItem[]).forEach(add)
    }
  }
  return [...byId.values()].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
  )
}

/** The words `q` looks in, as the server's `search` column holds them. */
const words = (item: ActivityItem) =>
  [
    item.merchant?.name,
    item.merchant?.city,
    item.counterparty_name,
    item.amount.currency,
    item.received?.currency,
    item.card_last4,
    item.reference,
    item.address,
    item.tx_hash,
    item.note,
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase()

const within = (amount: string, min?: string, max?: string) => {
  const value = parseDecimal(amount)
  if (min && compare(value, parseDecimal(min)) < 0) return false
  if (max && compare(value, parseDecimal(max)) > 0) return false
  return true
}

/** Whether an item is one the API would answer for these filters. */
export function matches(item: ActivityItem, filters: ActivityFilters): boolean {
  if (filters.q && !words(item).includes(filters.q.trim().toLowerCase())) return false
  if (filters.type && item.type !== filters.type) return false
  if (filters.status && item.status !== filters.status) return false
  if (filters.currency) {
    const code = filters.currency.toUpperCase()
    if (item.amount.currency !== code && item.received?.currency !== code) return false
  }
  if (
    filters.wallet_uuid &&
    ![item.wallet_uuid, item.counter_wallet_uuid].includes(filters.wallet_uuid)
  ) {
    return false
  }
  if (filters.card_id && item.card_id !== filters.card_id) return false
  if (filters.fiat_account_id && item.fiat_account_id !== filters.fiat_account_id) return false
  const at = Date.parse(item.created_at)
  if (filters.from && at < Date.parse(filters.from)) return false
  if (filters.to && at >= Date.parse(filters.to)) return false
  return within(item.amount.amount, filters.min, filters.max)
}
