import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type LogLevel, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { appSettingProblems } from './scripts/app-settings.mjs'
import { englishParts } from './scripts/i18n-parts.ts'
import { precompress } from './scripts/precompress.mjs'

/** The manifest lives at the top level (docs/architecture.md); the PWA plugin emits and links it. */
const manifest = JSON.parse(
  readFileSync(new URL('./manifest.webmanifest', import.meta.url), 'utf8'),
)

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

/**
 * The build id: BUILD_ID from CI, else the commit. Not a timestamp: the same
 * sources must build the same bundle, or every build would be an "update".
 */
function buildId(): string {
  if (process.env.BUILD_ID) return process.env.BUILD_ID
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return 'local'
  }
}

// The API listens on 127.0.0.1 (HOST's default): "localhost" may resolve to ::1 first.
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8081'

/** The app build's log level, for the service worker's own build (see below). */
let appLogLevel: LogLevel | undefined
const rememberLogLevel: Plugin = {
  name: 'remember-log-level',
  configResolved(config) {
    appLogLevel = config.logLevel
  },
}

/**
 * vite-plugin-pwa builds the service worker in a Vite build of its own, which
 * `npm start` should not hear about: it asks rolldown for one file with
 * `output.inlineDynamicImports`, deprecated in Vite 8 with a warning on every
 * build — the same setting is spelled `codeSplitting: false` here — and it
 * does not pass on the app build's log level (`--logLevel warn`), so its
 * progress lines came through; it takes the app build's.
 */
const quietWorkerBuild: Plugin = {
  name: 'quiet-worker-build',
  config(config) {
    const output = config.build?.rollupOptions?.output
    if (output && !Array.isArray(output) && 'inlineDynamicImports' in output) {
      const { inlineDynamicImports, ...rest } = output
      config.build!.rollupOptions!.output = { ...rest, codeSplitting: !inlineDynamicImports }
    }
    return appLogLevel ? { logLevel: appLogLevel } : undefined
  },
}

/** The VITE_* settings, checked once: a mistyped name or a malformed value stops the build. */
const checkAppSettings: Plugin = {
  name: 'check-app-settings',
  configResolved(config) {
    const settings = Object.entries(config.env).filter(([name]) => name.startsWith('VITE_'))
    const problems = appSettingProblems(Object.fromEntries(settings))
    if (problems.length > 0) {
      throw new Error(`The app's settings need another look:\n- ${problems.join('\n- ')}`)
    }
  },
}

/**
 * Brotli and gzip copies of every text file, written once the whole build —
 * the service worker included (vite-plugin-pwa writes it in its own
 * closeBundle, which this one follows) — is on disk. The server sends them as
 * they are (server/infra/web.ts).
 */
let outDir = 'dist'
const precompressBuild: Plugin = {
  name: 'precompress',
  apply: 'build',
  enforce: 'post',
  configResolved(config) {
    outDir = config.build.outDir
  },
  closeBundle: {
    sequential: true,
    order: 'post',
    async handler() {
      await precompress(outDir)
    },
  },
}

type ModuleInfo = { importers: readonly string[]; isEntry: boolean } | null

/** Where a module is used: the entry, home, a screen of someone signed out. */
interface Reach {
  entry: boolean
  home: boolean
  signedOut: boolean
}
const HOME = /\/src\/app\/home-page\.tsx$/
const SIGNED_OUT = /\/src\/features\/(auth\/sign-(in|up)-page|security\/passkey-sign-in)\.tsx$/

/**
 * Home's code in one chunk of its own (issue 27): the first screen of a
 * signed-in visit pulled ~27 small chunks, one request and ~400 bytes of
 * headers each on HTTP/1.1. A module home-page.tsx reaches by static imports
 * joins it — unless the entry reaches it too, which keeps it there (the
 * initial JS budget counts the entry and what it imports statically), or the
 * sign-in and sign-up screens do, which keeps it out (a first visit signed
 * out would download home with them).
 */
function homeChunk() {
  const reached = new Map<string, Reach>()
  const reach = (id: string, info: (id: string) => ModuleInfo): Reach => {
    const known = reached.get(id)
    if (known) return known
    const found = { entry: false, home: HOME.test(id), signedOut: SIGNED_OUT.test(id) }
    // Set before the walk: an import cycle ends here instead of going round.
    reached.set(id, found)
    const module = info(id)
    if (module?.isEntry) found.entry = true
    for (const importer of module?.importers ?? []) {
      const from = reach(importer, info)
      found.entry ||= from.entry
      found.home ||= from.home
      found.signedOut ||= from.signedOut
    }
    return found
  }
  return {
    name: (id: string, ctx: { getModuleInfo: (id: string) => ModuleInfo }) => {
      const where = reach(id, (module) => ctx.getModuleInfo(module))
      return where.home && !where.entry && !where.signedOut ? 'home-screen' : null
    },
  }
}

export default defineConfig({
  // The query cache on disk is dropped when this changes (src/app/offline-cache.ts).
  define: { __APP_VERSION__: JSON.stringify(`${version}+${buildId()}`) },
  plugins: [
    checkAppSettings,
    rememberLogLevel,
    englishParts(),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      // Registered by src/app/service-worker.ts through workbox-window.
      injectRegister: false,
      manifest,
      manifestFilename: 'manifest.webmanifest',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // The common-password list (sign-up's strength meter) is fetched when used, not installed.
        globIgnores: ['**/passwords.json-*.js'],
        buildPlugins: { vite: [quietWorkerBuild] },
      },
      devOptions: { enabled: false },
    }),
    precompressBuild,
  ],
  resolve: {
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('./src/app/sync-external-store.ts', import.meta.url)),
      },
    ],
  },
  // The card-secret worker (src/workers) is its own module chunk, loaded on the first reveal.
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // Written for error reports, never linked from the code nor served (server/infra/web.ts).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 300,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [homeChunk()], includeDependenciesRecursively: false },
      },
    },
  },
  server: {
    port: 8080,
    strictPort: true,
    proxy: {
      '/api': apiTarget,
      '/metrics': apiTarget,
      '/healthz': apiTarget,
    },
  },
})
