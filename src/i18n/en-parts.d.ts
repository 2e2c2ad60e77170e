/**
 * The catalogues as the build compiles them (scripts/i18n-parts.ts): keys to
 * messages, each a string or, when it takes values, a function of them. An
 * ambient module cannot name en.ts, so src/i18n/i18n.tsx gives these their
 * catalogue types.
 */
declare module 'virtual:en-parts' {
  export const entry: Record<string, string | ((values: Record<string, unknown>) => string)>
  export const loaders: Record<
    string,
    () => Promise<{
      default: Record<string, string | ((values: Record<string, unknown>) => string)>
    }>
  >
}

declare module 'virtual:catalogue/*' {
  const messages: Record<string, string | ((values: Record<string, unknown>) => string)>
  export default messages
}
