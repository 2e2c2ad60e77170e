/** True when dist/ is missing or older than any of its sources. */
export function distIsStale(root?: string): boolean
