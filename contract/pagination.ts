import { type TSchema, Type } from '@sinclair/typebox'

/** SPEC.md §9: the shared pagination defaults. */
export const DEFAULT_LIMIT = 10
export const DEFAULT_OFFSET = 0
export const MAX_LIMIT = 100

export const PageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
  offset: Type.Integer({ minimum: 0, default: DEFAULT_OFFSET }),
})

/** Every list answers `{ data, total, limit, offset, is_last_page }` (DESIGN.md). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    is_last_page: Type.Boolean(),
  })
