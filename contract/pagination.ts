import { type TSchema, Type } from '@sinclair/typebox'
import { DEFAULT_LIMIT, DEFAULT_OFFSET, MAX_LIMIT, MAX_OFFSET } from './page-bounds.ts'

export { DEFAULT_LIMIT, DEFAULT_OFFSET, MAX_LIMIT, MAX_OFFSET }

export const PageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: DEFAULT_OFFSET }),
})

/** Every list answers `{ data, total, limit, offset, is_last_page }` (docs/architecture.md). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    is_last_page: Type.Boolean(),
  })

/**
 * The query of a history — a list that grows without bound (a wallet's
 * transactions, orders, card transactions): the page, and `with_total=true`
 * to have the whole list counted (it costs time in proportion to its length).
 */
export const HistoryQuery = Type.Composite([
  PageQuery,
  Type.Object({ with_total: Type.Optional(Type.Boolean()) }),
])

/**
 * A page of a history. `is_last_page` says whether more follow (the page is
 * read with one row beyond `limit`); `total` is there only where it costs
 * nothing — on the last page (`offset` + its length) — or when the query
 * asked for it (`with_total=true`).
 */
export const HistoryPage = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    total: Type.Optional(Type.Integer()),
    limit: Type.Integer(),
    offset: Type.Integer(),
    is_last_page: Type.Boolean(),
  })
