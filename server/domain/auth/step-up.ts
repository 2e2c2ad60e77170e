import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { OtpSent } from '../../../contract/otp.ts'
import type {
  AuthenticationResponse,
  StepUpMethod,
  StepUpProof,
  StepUpStatus,
  TelegramBiometricEnrolment,
} from '../../../contract/security.ts'
import type { DB } from '../../infra/db/schema.ts'
import { DomainError } from '../failure.ts'
import { maskDestination } from '../otp/rules.ts'
import type { OtpService } from '../otp/service.ts'
import type { OwnerSession } from '../owner.ts'
import type { PasskeyService } from './passkeys.ts'
import * as repo from './security-repository.ts'
import { freshUntil, isFresh, stepUpMethods } from './webauthn-rules.ts'

/** The failures of the step-up use cases; security-routes.ts maps each to its answer. */
export type StepUpFailure =
  /** A sensitive call without a fresh proof; `methods` are the proofs this session can give. */
  | { kind: 'STEP_UP_REQUIRED'; methods: StepUpMethod[] }
  /** The session ended meanwhile. */
  | { kind: 'SESSION_ENDED' }
  /** Telegram biometrics outside the Mini App, or a token not of this session, or expired. */
  | { kind: 'TELEGRAM_BIOMETRICS_INVALID' }

export class StepUpError extends DomainError<StepUpFailure> {}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * How long a Telegram biometric token proves presence. It lives behind the
 * device's fingerprint or face and works only in the session that enrolled
 * it, so a long life costs little; it ends all the same, so a token copied
 * off a device one day is not good for ever. A quarter: someone who opens the
 * Mini App every week enrols again a few times a year, each time just after
 * opening it (fresh launch data is the proof enrolling needs).
 */
export const TELEGRAM_BIOMETRICS_TTL_DAYS = 90

/**
 * The second look: a proof of presence at most five minutes old, stamped on
 * the session that gave it (`sessions.stepped_up_at`). A passkey, a one-time
 * code to the person's own e-mail or phone, or — in the Telegram Mini App,
 * where WebAuthn does not exist — Telegram biometrics. A password is never a
 * proof; a passkey sign-in is one for its first five minutes.
 */
export class StepUpService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly otp: OtpService,
    private readonly passkeys: PasskeyService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Nothing when the session is stepped up; else throws with the proofs it can give.
   * @throws StepUpError STEP_UP_REQUIRED, SESSION_ENDED
   */
  async require(session: OwnerSession): Promise<void> {
    const steppedUpAt = await repo.findSteppedUpAt(this.db, session)
    if (steppedUpAt === undefined) throw new StepUpError({ kind: 'SESSION_ENDED' })
    if (isFresh(steppedUpAt, this.clock())) return
    const { methods } = await this.status(session)
    throw new StepUpError({ kind: 'STEP_UP_REQUIRED', methods })
  }

  /** @throws StepUpError SESSION_ENDED */
  async status(session: OwnerSession): Promise<StepUpStatus> {
    const now = this.clock()
    const facts = await repo.findStepUpFacts(this.db, session, now)
    if (!facts) throw new StepUpError({ kind: 'SESSION_ENDED' })
    const contact = facts.email
      ? ({ channel: 'email', identifier: facts.email } as const)
      : facts.phone
        ? ({ channel: 'sms', identifier: facts.phone } as const)
        : undefined
    const until = isFresh(facts.stepped_up_at, now) ? freshUntil(facts.stepped_up_at) : null
    return {
      methods: stepUpMethods({
        appEnv: facts.app_env,
        hasPasskey: Boolean(facts.has_passkey),
        hasTelegramBiometrics: Boolean(facts.has_telegram_biometrics),
        hasContact: contact !== undefined,
      }),
      otp_destination: contact ? maskDestination(contact) : null,
      otp_channel: contact?.channel ?? null,
      fresh_until: until?.toISOString() ?? null,
    }
  }

  /** @throws OtpError NO_CONTACT, OTP_BLOCKED, RATE_LIMITED, MESSAGE_NOT_DELIVERED */
  sendCode(session: OwnerSession): Promise<OtpSent> {
    return this.otp.sendStepUpCode(session)
  }

  /** @throws OtpError NO_CONTACT, OTP_BLOCKED, OTP_INVALID, OTP_EXPIRED; StepUpError SESSION_ENDED */
  verifyCode(session: OwnerSession, token: string): Promise<StepUpProof> {
    return this.otp.verifyStepUpCode(session, token, (trx) =>
      this.stamp(trx, session, 'otp', this.clock()),
    )
  }

  /** @throws PasskeyError PASSKEY_NOT_FOUND (none registered) */
  passkeyOptions(session: OwnerSession) {
    return this.passkeys.stepUpOptions(session)
  }

  /** @throws PasskeyError PASSKEY_CHALLENGE_INVALID, PASSKEY_INVALID; StepUpError SESSION_ENDED */
  verifyPasskey(session: OwnerSession, response: AuthenticationResponse): Promise<StepUpProof> {
    return this.passkeys.stepUp(session, response, (trx, now) =>
      this.stamp(trx, session, 'passkey', now),
    )
  }

  /**
   * A token for the Mini App to keep behind the device's biometrics
   * (BiometricManager.updateBiometricToken), good in this session only, for
   * TELEGRAM_BIOMETRICS_TTL_DAYS. Only in the Mini App, and only from a
   * session stepped up already or opened by Telegram launch data signed in
   * the last five minutes (Telegram's signature on it is a fresh proof that
   * the Telegram account holder is here: without it, an account with no
   * e-mail, phone or passkey could never start). The launch data's own date
   * counts, not the session's: data signed 50 minutes ago is still good for
   * signing in, but no fresh proof.
   * @throws StepUpError STEP_UP_REQUIRED, SESSION_ENDED, TELEGRAM_BIOMETRICS_INVALID
   */
  async enrolTelegramBiometrics(session: OwnerSession): Promise<TelegramBiometricEnrolment> {
    const now = this.clock()
    const facts = await repo.findStepUpFacts(this.db, session, now)
    if (!facts) throw new StepUpError({ kind: 'SESSION_ENDED' })
    if (facts.app_env !== 'telegram') {
      throw new StepUpError({ kind: 'TELEGRAM_BIOMETRICS_INVALID' })
    }
    const launchedNow =
      facts.sign_in_method === 'telegram' && isFresh(facts.telegram_auth_date, now)
    if (!launchedNow && !isFresh(facts.stepped_up_at, now)) {
      const { methods } = await this.status(session)
      throw new StepUpError({ kind: 'STEP_UP_REQUIRED', methods })
    }
    const token = randomBytes(32).toString('base64url')
    await repo.insertTelegramBiometricToken(this.db, session, {
      id: uuidv7(),
      hash: hashToken(token),
      expiresAt: new Date(now.getTime() + TELEGRAM_BIOMETRICS_TTL_DAYS * 86_400_000),
    })
    return { token }
  }

  /** @throws StepUpError TELEGRAM_BIOMETRICS_INVALID, SESSION_ENDED */
  async verifyTelegramBiometrics(session: OwnerSession, token: string): Promise<StepUpProof> {
    const now = this.clock()
    return this.db.transaction().execute(async (trx) => {
      const facts = await repo.findStepUpFacts(trx, session, now)
      if (!facts) throw new StepUpError({ kind: 'SESSION_ENDED' })
      const known =
        facts.app_env === 'telegram' &&
        (await repo.matchTelegramBiometricToken(trx, session, hashToken(token), now))
      if (!known) throw new StepUpError({ kind: 'TELEGRAM_BIOMETRICS_INVALID' })
      return this.stamp(trx, session, 'telegram_biometrics', now)
    })
  }

  private async stamp(
    db: Kysely<DB>,
    session: OwnerSession,
    method: StepUpMethod,
    now: Date,
  ): Promise<StepUpProof> {
    if (!(await repo.stampStepUp(db, session, method, now))) {
      throw new StepUpError({ kind: 'SESSION_ENDED' })
    }
    return { method, fresh_until: (freshUntil(now) as Date).toISOString() }
  }
}
