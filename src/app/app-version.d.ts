/** `<package.json version>+<build id>`, set by `define` in vite.config.ts (vitest.config.ts in tests). */
declare const __APP_VERSION__: string
