import type { Config } from './config.ts'
import { DEMO_EMAIL } from './domain/sandbox/demo-seed.ts'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])
const EVERYWHERE = new Set(['0.0.0.0', '::'])

/** Where a browser on this machine opens the app, and who else can reach it. */
export function address(host: string, port: number) {
  const local = LOOPBACK.has(host) || EVERYWHERE.has(host)
  const url = `http://${local ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`
  const reach = LOOPBACK.has(host)
    ? 'this machine only (set HOST=0.0.0.0 to open it to the network)'
    : EVERYWHERE.has(host)
      ? 'every network interface (HOST)'
      : `the interface ${host} (HOST)`
  return { url, reach }
}

/** The database in words, without a password: the embedded one's folder, or the server's host. */
export function databaseLabel(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `embedded PGlite in ${config.dataDir}`
  if (config.databaseUrl === 'memory://') return 'embedded PGlite in memory (nothing is kept)'
  try {
    const url = new URL(config.databaseUrl)
    return `PostgreSQL at ${url.host}${url.pathname}`
  } catch {
    return 'PostgreSQL'
  }
}

/** The demo sign-in when the sandbox seeds one, else undefined. */
export function demoSignIn(config: Pick<Config, 'sandbox' | 'demo'>): string | undefined {
  return config.sandbox && config.demo.seed ? `${DEMO_EMAIL} / ${config.demo.password}` : undefined
}

/**
 * What `npm start` shows a person once the server listens: where to open it,
 * which database, whether the sandbox plays the outside parties, whether the
 * Telegram Mini App is on, and how to sign in as the demo user — a few
 * lines, nothing else.
 */
export function startBanner(config: Config, port: number): string {
  const { url, reach } = address(config.host, port)
  const demo = demoSignIn(config)
  const rows: [string, string][] = [
    ['Open', `${url}   — ${reach}`],
    ['Database', databaseLabel(config)],
    [
      'Sandbox',
      config.sandbox
        ? 'on: /api/sandbox/* plays the banks, chains, card network and KYC'
        : 'off (production mode)',
    ],
    [
      'Telegram',
      config.telegram.botToken
        ? `Mini App on: point the bot's Mini App at ${config.events.publicUrl}`
        : 'Mini App off (set TELEGRAM_BOT_TOKEN to turn it on)',
    ],
    ...(demo ? ([['Demo sign-in', demo]] as [string, string][]) : []),
    ['Stop', 'Ctrl+C'],
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)
  return `\nFinplatform is running\n${lines.join('\n')}\n\n`
}
