/** API keys' header and roles, importing nothing: the app takes them without TypeBox. */

/** The header a developer API key travels in, on both bases (docs/architecture.md). */
export const API_KEY_HEADER = 'x-api-key'

/**
 * docs/product.md §6. READ_ONLY reads; DEVELOPER does everything in a sandbox
 * deployment but moves no money in production; PRODUCTION does everything
 * its owner may. Ordered: each role may do what the ones before it may.
 */
export const API_KEY_ROLES = ['READ_ONLY', 'DEVELOPER', 'PRODUCTION'] as const
export type ApiKeyRole = (typeof API_KEY_ROLES)[number]
