import { describe, expect, it } from 'vitest'
import { judgeRefresh, type PresentedToken, type RefreshVerdict } from './rules.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')
const ago = (ms: number) => new Date(NOW.getTime() - ms)
const later = (ms: number) => new Date(NOW.getTime() + ms)
const DAY = 86_400_000

/** A token as the repository reads it: unused, unexpired, in a live session, unless overridden. */
const presented = (overrides: Partial<PresentedToken> = {}): PresentedToken => ({
  expiresAt: later(30 * DAY),
  usedAt: null,
  sessionRevokedAt: null,
  ...overrides,
})

describe('judgeRefresh', () => {
  const cases: Array<[string, PresentedToken | undefined, number, RefreshVerdict]> = [
    ['a token nobody issued is unknown', undefined, 30, 'unknown'],
    ['an unused, unexpired token is rotated', presented(), 30, 'current'],
    [
      'a token expiring a millisecond from now is still current',
      presented({ expiresAt: later(1) }),
      30,
      'current',
    ],
    [
      'a token is expired at the very instant it expires',
      presented({ expiresAt: NOW }),
      30,
      'expired',
    ],
    ['an unused token past its expiry is expired', presented({ expiresAt: ago(1) }), 30, 'expired'],
    [
      'a used token presented again at once is within grace',
      presented({ usedAt: NOW }),
      30,
      'grace',
    ],
    [
      'the grace window includes its last millisecond',
      presented({ usedAt: ago(30_000) }),
      30,
      'grace',
    ],
    [
      'a millisecond after the grace window is reuse',
      presented({ usedAt: ago(30_001) }),
      30,
      'reuse',
    ],
    [
      'with no grace window, the same instant still counts as the lost answer',
      presented({ usedAt: NOW }),
      0,
      'grace',
    ],
    ['with no grace window, any later replay is reuse', presented({ usedAt: ago(1) }), 0, 'reuse'],
    [
      'a used token whose expiry passed since is judged by its use, not its expiry',
      presented({ usedAt: ago(5_000), expiresAt: ago(1_000) }),
      30,
      'grace',
    ],
    [
      'an old stolen token replayed after expiry still counts as reuse',
      presented({ usedAt: ago(40 * DAY), expiresAt: ago(10 * DAY) }),
      30,
      'reuse',
    ],
    [
      'a token of a revoked session is refused',
      presented({ sessionRevokedAt: ago(1_000) }),
      30,
      'revoked',
    ],
    [
      'revocation wins over the grace window',
      presented({ usedAt: NOW, sessionRevokedAt: NOW }),
      30,
      'revoked',
    ],
    [
      'revocation wins over reuse: a revoked family is not revoked twice',
      presented({ usedAt: ago(DAY), sessionRevokedAt: ago(1_000) }),
      30,
      'revoked',
    ],
  ]

  it.each(cases)('%s', (_name, token, graceSeconds, verdict) => {
    expect(judgeRefresh(token, NOW, graceSeconds)).toBe(verdict)
  })
})
