/**
 * What presenting a refresh token means (RFC 9700 rotation with a grace
 * window). Pure: the service reads the row, asks here, then acts.
 *
 * - `current`: never used and unexpired: rotate it.
 * - `grace`: already used, but within the grace window: a client that lost the
 *   answer (two tabs, a dropped connection) gets the session's current pair.
 * - `reuse`: used before the window: someone replays a stolen token; revoke
 *   the whole session (token family).
 * - `unknown`, `revoked`, `expired`: refuse.
 */
export type RefreshVerdict = 'current' | 'grace' | 'reuse' | 'unknown' | 'revoked' | 'expired'

export interface PresentedToken {
  expiresAt: Date
  usedAt: Date | null
  sessionRevokedAt: Date | null
}

export function judgeRefresh(
  token: PresentedToken | undefined,
  now: Date,
  graceSeconds: number,
): RefreshVerdict {
  if (!token) return 'unknown'
  if (token.sessionRevokedAt) return 'revoked'
  if (token.usedAt) {
    return now.getTime() - token.usedAt.getTime() <= graceSeconds * 1000 ? 'grace' : 'reuse'
  }
  if (token.expiresAt.getTime() <= now.getTime()) return 'expired'
  return 'current'
}
