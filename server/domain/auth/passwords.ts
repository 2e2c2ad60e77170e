import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2'
import type { Kysely, Transaction } from 'kysely'
import type {
  ChangePasswordBody,
  PasswordChanged,
  PasswordStatus,
  TokenPair,
} from '../../../contract/auth.ts'
import type { OtpChannel, OtpSent } from '../../../contract/otp.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobHandler, JobResult } from '../../infra/jobs.ts'
import { enqueue } from '../../infra/jobs.ts'
import { OtpError } from '../otp/errors.ts'
import type { Language } from '../otp/messages.ts'
import { maskDestination, type Recipient } from '../otp/rules.ts'
import type { OtpService } from '../otp/service.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import type { RequestContext } from '../request-context.ts'
import { AuthError } from './errors.ts'
import { judgePassword } from './password-policy.ts'
import * as repo from './repository.ts'
import { revokeSessions } from './security-repository.ts'
import type { AuthService } from './service.ts'

/** The job that sends a password-reset code, so the request's answer waits for nothing. */
export const PASSWORD_RESET_JOB = 'auth.password_reset.send'

/**
 * Changing a password (signed in, with the second look and the current
 * password) and resetting a forgotten one with a one-time code to the
 * e-mail or phone the account signs in with. Either way every other session
 * ends and `security.password_changed` is written in the same transaction.
 */
export class PasswordService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly auth: AuthService,
    private readonly otp: OtpService,
    private readonly settings: { otpTtl: number; resendInterval: number },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async status(owner: Owner): Promise<PasswordStatus> {
    const facts = await repo.findPasswordFacts(this.db, owner)
    return {
      has_password: Boolean(facts?.password_hash),
      changed_at: facts?.password_changed_at?.toISOString() ?? null,
    }
  }

  /**
   * A new password for the signed-in person; every other session ends. An
   * account with a password must give it; one without sets its first.
   * @throws AuthError CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_INVALID, PASSWORD_UNCHANGED,
   *   PASSWORD_TOO_WEAK
   */
  async change(session: OwnerSession, body: ChangePasswordBody): Promise<PasswordChanged> {
    const facts = await repo.findPasswordFacts(this.db, session)
    const current = facts?.password_hash
    if (current) {
      if (body.current_password === undefined) {
        throw new AuthError({ kind: 'CURRENT_PASSWORD_REQUIRED' })
      }
      if (!(await argon2Verify(current, body.current_password))) {
        throw new AuthError({ kind: 'CURRENT_PASSWORD_INVALID' })
      }
      if (await argon2Verify(current, body.new_password)) {
        throw new AuthError({ kind: 'PASSWORD_UNCHANGED' })
      }
    }
    this.judge(body.new_password, facts?.email)
    // Hashed before the transaction: argon2 is slow on purpose and must not hold the database.
    const passwordHash = await argon2Hash(body.new_password)
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock()
      await repo.setPassword(trx, session, passwordHash, now)
      const ended = await revokeSessions(
        trx,
        session,
        { except: session.sessionId },
        'password_changed',
        now,
      )
      await this.announce(trx, session, 'change', now)
      return { changed_at: now.toISOString(), sessions_ended: ended }
    })
  }

  /**
   * Asks for a reset code. The answer is the same whether an account signs
   * in with the contact or not, and takes the same time: the code is sent by
   * a job (PASSWORD_RESET_JOB), which looks the account up.
   */
  async requestReset(
    tenantId: string,
    recipient: Recipient,
    language: Language | undefined,
  ): Promise<OtpSent> {
    await enqueue(this.db, {
      kind: PASSWORD_RESET_JOB,
      tenantId,
      payload: { channel: recipient.channel, identifier: recipient.identifier, language },
    })
    return {
      channel: recipient.channel,
      destination: maskDestination(recipient),
      expires_in: this.settings.otpTtl,
      resend_in: this.settings.resendInterval,
    }
  }

  /**
   * The job's step: the code goes when an account signs in with the contact.
   * What stops a code (a block, the resend interval, a refusing gateway) ends
   * the job: nobody waits for it, and trying again would only resend.
   */
  readonly sendReset: JobHandler = async (job: Job, context: JobContext): Promise<JobResult> => {
    const { channel, identifier, language } = job.payload as {
      channel: OtpChannel
      identifier: string
      language?: Language
    }
    // requestReset enqueues every such job with its tenant.
    const tenantId = job.tenantId as string
    try {
      await this.otp.sendPasswordResetCode(tenantId, { channel, identifier }, language)
    } catch (error) {
      if (!(error instanceof OtpError)) throw error
      context.log.info({ reason: error.failure.kind }, 'password reset code not sent')
    }
    return undefined
  }

  /**
   * Sets the new password with the code sent to the contact, ends every
   * session of the account, and opens a new one (signed in).
   * @throws OtpError OTP_BLOCKED, OTP_INVALID, OTP_EXPIRED; AuthError PASSWORD_TOO_WEAK,
   *   USER_BLOCKED
   */
  async confirmReset(
    context: RequestContext,
    recipient: Recipient,
    input: { token: string; newPassword: string },
  ): Promise<TokenPair> {
    const passwordHash = await argon2Hash(input.newPassword)
    return this.otp.verifyPasswordReset(
      context.tenantId,
      recipient,
      input.token,
      async (trx, owner) => {
        // Judged once the code is good (the account's own e-mail is in the rule);
        // a refusal rolls back, so the code still works with a better password.
        const facts = await repo.findPasswordFacts(trx, owner)
        this.judge(input.newPassword, facts?.email)
        const now = this.clock()
        await repo.setPassword(trx, owner, passwordHash, now)
        await revokeSessions(trx, owner, 'all', 'password_reset', now)
        await this.announce(trx, owner, 'reset', now)
        return this.auth.startSession(trx, context, owner.userId, 'otp')
      },
    )
  }

  /** @throws AuthError PASSWORD_TOO_WEAK */
  private judge(password: string, email: string | null | undefined) {
    const verdict = judgePassword(password, { email: email ?? undefined })
    if (!verdict.ok) {
      throw new AuthError({
        kind: 'PASSWORD_TOO_WEAK',
        reason: verdict.reason,
        field: 'new_password',
      })
    }
  }

  private announce(trx: Transaction<DB>, owner: Owner, via: 'change' | 'reset', now: Date) {
    return emitEvent(trx, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      kind: 'security.password_changed',
      payload: { via, changed_at: now.toISOString() },
    })
  }
}
