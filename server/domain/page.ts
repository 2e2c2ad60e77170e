/** One page of a list as every list call answers it (DESIGN.md): `{ data, total, limit, offset, is_last_page }`. */
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
