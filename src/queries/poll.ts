/** What the interval reads of a TanStack query (any query's state has these). */
interface PolledQuery {
  state: { data: unknown; dataUpdatedAt: number; errorUpdatedAt: number }
}

/**
 * A poll that slows down while nothing changes (issue 16: home polls only
 * what can change, only while visible — TanStack's default — and backs off):
 * `base` after an answer that changed something, doubled for each answer in a
 * row that changed nothing, up to `max`. "Nothing changed" is the same data
 * object: structural sharing keeps it when the JSON is equal, and a failed
 * read keeps the old one. Only a new answer (or failure) counts: TanStack
 * asks for the interval more often than it fetches.
 */
export function backingOff(base: number, max = base * 8) {
  const seen = new WeakMap<object, { data: unknown; at: number; quiet: number }>()
  return (query: PolledQuery): number => {
    const { data, dataUpdatedAt, errorUpdatedAt } = query.state
    const at = Math.max(dataUpdatedAt, errorUpdatedAt)
    const last = seen.get(query)
    let quiet = last?.quiet ?? 0
    if (last && last.at !== at) quiet = last.data === data ? quiet + 1 : 0
    seen.set(query, { data, at, quiet })
    return Math.min(base * 2 ** quiet, max)
  }
}
