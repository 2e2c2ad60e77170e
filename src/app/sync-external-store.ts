/*
 * What `use-sync-external-store/shim` is for wouter: React's own hook. The
 * shim is a polyfill for React before 18 (it checks and falls back at run
 * time); on React 19 its fallback is dead code in the first download, so the
 * build points the shim here (vite.config.ts, resolve.alias).
 */
export { useSyncExternalStore } from 'react'
