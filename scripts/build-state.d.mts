/** True when dist/ is missing or older than any of its sources. */
export function distIsStale(root?: string): boolean
/** Builds the app for production (NODE_ENV pinned). */
export function buildApp(): Promise<void>
/** Builds the app when dist/ is missing or older than its sources. */
export function ensureBuilt(root?: string): Promise<void>
