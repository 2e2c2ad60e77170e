/** Paging bounds, importing nothing: the app takes them without TypeBox. */

/** docs/product.md §9: the shared pagination defaults. */
export const DEFAULT_LIMIT = 10
export const DEFAULT_OFFSET = 0
export const MAX_LIMIT = 100
/**
 * Past a million rows nobody pages by offset (exports read by key), and a
 * bound keeps every offset a number the database takes (not 1e23).
 */
export const MAX_OFFSET = 1_000_000
