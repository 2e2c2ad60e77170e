import type { OtpChannel } from '../../../contract/otp.ts'

/**
 * The rules of one-time codes, pure: the service reads the rows, asks here,
 * then writes what the answer says.
 */

export interface OtpSettings {
  /** Seconds a code stays valid. */
  ttl: number
  /** Seconds between two codes to one identifier. */
  resendInterval: number
  /** Wrong codes that block the identifier… */
  maxAttempts: number
  /** …for this many seconds. */
  blockDuration: number
}

/** Where a code goes: the channel and the normalised login identifier on it. */
export interface Recipient {
  channel: OtpChannel
  /** E-mail lower-cased, or a phone as digits. */
  identifier: string
}

/** E-mail as a login identifier: surrounding space and letter case never make a second account. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase()

/** What the reply shows of a destination: enough to recognise, too little to harvest. */
export function maskDestination({ channel, identifier }: Recipient): string {
  if (channel === 'sms') {
    return '•'.repeat(Math.max(identifier.length - 4, 0)) + identifier.slice(-4)
  }
  const at = identifier.lastIndexOf('@')
  return `${identifier.slice(0, 1)}•••${identifier.slice(at)}`
}

/** Seconds to wait before another code may go to the identifier; 0: send now. */
export function resendWait(lastSentAt: Date | undefined, now: Date, settings: OtpSettings): number {
  if (!lastSentAt) return 0
  const nextAt = lastSentAt.getTime() + settings.resendInterval * 1000
  return Math.max(Math.ceil((nextAt - now.getTime()) / 1000), 0)
}

/**
 * What a presented code means, given the identifier's live code for the purpose.
 * An expired live code answers `expired` whatever was typed: no code can work
 * any more, and the person needs to ask for a new one, not to type again.
 */
export type CodeVerdict = 'valid' | 'expired' | 'wrong'

export function judgeCode(
  live: { expiresAt: Date; matches: boolean } | undefined,
  now: Date,
): CodeVerdict {
  if (!live) return 'wrong'
  if (live.expiresAt.getTime() <= now.getTime()) return 'expired'
  return live.matches ? 'valid' : 'wrong'
}

export interface AttemptState {
  failedAttempts: number
  lastFailedAt: Date | null
  blockedUntil: Date | null
}

/** The block in force at `now`, if any. */
export function activeBlock(state: AttemptState | undefined, now: Date): Date | undefined {
  const until = state?.blockedUntil
  return until && until.getTime() > now.getTime() ? until : undefined
}

/**
 * The identifier's state after one more wrong code. Wrong codes older than the
 * block duration are forgotten (a typo a week ago does not count towards
 * today's block); reaching the limit blocks the identifier and starts the count
 * afresh for after the block.
 */
export function afterWrongCode(
  state: AttemptState | undefined,
  now: Date,
  settings: OtpSettings,
): AttemptState & { attemptsLeft: number } {
  const recent =
    state?.lastFailedAt &&
    now.getTime() - state.lastFailedAt.getTime() < settings.blockDuration * 1000
      ? state.failedAttempts
      : 0
  const failed = recent + 1
  if (failed >= settings.maxAttempts) {
    return {
      failedAttempts: 0,
      lastFailedAt: null,
      blockedUntil: new Date(now.getTime() + settings.blockDuration * 1000),
      attemptsLeft: 0,
    }
  }
  return {
    failedAttempts: failed,
    lastFailedAt: now,
    blockedUntil: null,
    attemptsLeft: settings.maxAttempts - failed,
  }
}
