/**
 * The English catalogue as the build cuts it (scripts/i18n-parts.ts, by
 * src/i18n/parts.ts): keys to words. An ambient module cannot name en.ts, so
 * src/i18n/i18n.tsx gives these their catalogue types.
 */
declare module 'virtual:en-parts' {
  export const entry: Record<string, string>
  export const loaders: Record<string, () => Promise<{ default: Record<string, string> }>>
}
