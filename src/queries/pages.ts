/**
 * The next page's offset for an infinite list read by offset (every list
 * answers `{ data, total, limit, offset, is_last_page }`), or undefined once
 * the last answer was the last page. An empty page ends the list too, so a
 * list that shrank between two reads cannot ask for the same offset forever.
 */
export const nextOffset = (last: { is_last_page: boolean; offset: number; data: unknown[] }) =>
  last.is_last_page || last.data.length === 0 ? undefined : last.offset + last.data.length
