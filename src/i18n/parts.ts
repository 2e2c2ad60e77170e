/*
 * Where each key of the English catalogue ships (issue 16). en.ts stays one
 * file, the reference every language is checked against; the build cuts it
 * by key prefix (scripts/i18n-parts.ts): the keys of `entry` and of any
 * prefix listed nowhere go into the first download, each other part is a
 * chunk of its own that the routes needing it load alongside their code
 * (src/app/routes.tsx). The longest listed prefix decides: 'auth.signOut'
 * (the layout's button) ships in the entry, the rest of 'auth' with sign-in.
 *
 * Adding keys under a prefix listed here needs nothing more. A new prefix
 * ships in the entry until it is listed (the size test in tests/e2e holds
 * the entry's budget); list it with the part of the routes that show it.
 * Should a screen use a key its route did not load, the words come a moment
 * later (the part is fetched on first use, and the screen drawn again), and
 * development builds warn in the console naming the key.
 */
export const EN_PARTS = {
  /** The shell around every screen: frame, navigation, offline and update banners, errors. */
  entry: [
    'auth.signOut',
    'error.boundary',
    'error.retry',
    // The bell in the shell, with its unread count.
    'notifications.bell',
    'notifications.bellUnread',
  ],
  /**
   * What forms and failed reads say, and the small pieces any screen's form
   * may show (the resend countdown, the prompt to verify, copy buttons, the
   * country picker); every route loads it (withMessages).
   */
  errors: ['error', 'code.resendIn', 'code.resendNow', 'kyc.prompt', 'copy', 'country'],
  auth: ['auth', 'code', 'phone', 'telegram'],
  home: [
    'home',
    'total',
    'wallets',
    'wallet',
    'steps',
    'history',
    'tx',
    'address',
    'csv',
    'move',
    'orders.action',
    'noWallet',
    'missing',
    // Issue 14's activity feed (home's recent activity and the Activity tab), and how it
    // words an order's steps and a card's declines.
    'activity',
    'orders.event',
    'cards.tx.declined',
    'cards.tx.type',
    'money',
  ],
  // Issue 32's paying people, requests and schedules come with the money screens.
  orders: ['orders', 'people'],
  cards: ['cards'],
  counterparties: ['cp'],
  developer: ['dev'],
  kyc: ['kyc'],
  // The profile's link to the security page (the proof of balances' words are `profile.proofs`).
  profile: ['profile', 'security.link', 'security.linkLead'],
  /** The notification centre, push preferences (profile) and webhooks (developer). */
  notifications: ['notifications', 'push', 'webhooks'],
  /** Issue 31: statements (their screen) and insights (theirs). */
  statements: ['statements'],
  insights: ['insights'],
  /** Passkeys, sessions, the security page and the step-up dialog over any screen. */
  security: ['security', 'sessions', 'passkey', 'stepUp', 'auth.passkey', 'lockdown'],
} as const satisfies Record<string, readonly string[]>

/** A chunk of the English catalogue that is not in the entry. */
export type EnPart = Exclude<keyof typeof EN_PARTS, 'entry'>

export const EN_PART_NAMES = Object.keys(EN_PARTS).filter(
  (name): name is EnPart => name !== 'entry',
)

/** The part `key` ships in; undefined for the entry. */
export function partOf(key: string): EnPart | undefined {
  let best: { part: keyof typeof EN_PARTS; length: number } | undefined
  for (const [part, prefixes] of Object.entries(EN_PARTS) as [
    keyof typeof EN_PARTS,
    readonly string[],
  ][]) {
    for (const prefix of prefixes) {
      if (
        (key === prefix || key.startsWith(`${prefix}.`)) &&
        prefix.length > (best?.length ?? -1)
      ) {
        best = { part, length: prefix.length }
      }
    }
  }
  return best && best.part !== 'entry' ? best.part : undefined
}
