/** One page of a list as every list call answers it (docs/architecture.md): `{ data, total, limit, offset, is_last_page }`. */
export interface PageOf<T> {
  data: T[]
  total: number
  limit: number
  offset: number
  is_last_page: boolean
}

/** The page at `offset` of a list of `total` rows. */
export function pageOf<T>(
  data: T[],
  total: number,
  page: { limit: number; offset: number },
): PageOf<T> {
  return {
    data,
    total,
    limit: page.limit,
    offset: page.offset,
    is_last_page: page.offset + data.length >= total,
  }
}

/** A list small enough to answer whole, on one page (catalogues, a chain's addresses). */
export const wholePage = <T>(data: T[]): PageOf<T> =>
  pageOf(data, data.length, {
    limit: data.length,
    offset: 0,
  })

/** A page of a history (contract/pagination.ts HistoryPage): `total` only where it is cheap or asked for. */
export interface HistoryPageOf<T> {
  data: T[]
  total?: number
  limit: number
  offset: number
  is_last_page: boolean
}

/** How a history is paged: `limit` + 1 rows are read, to learn whether more follow. */
export interface HistoryWindow {
  limit: number
  offset: number
  with_total?: boolean | undefined
}

/** The rows to read for a page: one beyond the limit. */
export const rowsFor = (page: HistoryWindow) => ({ limit: page.limit + 1, offset: page.offset })

/**
 * The page from `rows`, read with rowsFor (one row too many when more
 * follow). Its total is known for free on a last page that is not past the
 * end (offset + its length); anywhere else it is counted only when asked.
 */
export async function historyPage<T>(
  rows: readonly T[],
  page: HistoryWindow,
  count: () => Promise<number>,
): Promise<HistoryPageOf<T>> {
  const last = rows.length <= page.limit
  const data = rows.slice(0, page.limit)
  const known = last && (data.length > 0 || page.offset === 0)
  const total = known ? page.offset + data.length : page.with_total ? await count() : undefined
  return {
    data,
    ...(total !== undefined && { total }),
    limit: page.limit,
    offset: page.offset,
    is_last_page: last,
  }
}
