import { assertNever, ProblemError } from '../../infra/problem.ts'
import { OtpError, type OtpFailure } from './errors.ts'
import { normalisePhone } from './phone.ts'
import { normaliseEmail, type Recipient } from './rules.ts'

/** What the two route files (sign-in, contact change) share: the inputs and the one error switch. */

/** A 422 shaped like the schema validator's, for rules the schema cannot state. */
function invalidField(field: string, message: string): ProblemError {
  return new ProblemError(422, 'VALIDATION_FAILED', `${field} ${message}`, {
    title: 'Unprocessable Content',
    errors: [{ field, message }],
  })
}

export const emailRecipient = (email: string): Recipient => ({
  channel: 'email',
  identifier: normaliseEmail(email),
})

/** @throws ProblemError 422 when the input cannot be a phone number */
export function phoneRecipient(phone: string): Recipient {
  const identifier = normalisePhone(phone)
  if (!identifier) throw invalidField('/body/phone', 'is not a valid phone number')
  return { channel: 'sms', identifier }
}

/** `{ email }` or `{ phone }`, as a reset names the account. @throws ProblemError 422 (a phone) */
export const recipientOf = (body: { email: string } | { phone: string }): Recipient =>
  'email' in body ? emailRecipient(body.email) : phoneRecipient(body.phone)

const secondsUntil = (moment: Date) =>
  Math.max(Math.ceil((moment.getTime() - Date.now()) / 1000), 1)

/** The one switch from one-time-code failures to HTTP answers. */
function toProblem(failure: OtpFailure): ProblemError {
  switch (failure.kind) {
    case 'USER_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No account signs in with this e-mail or phone.')
    case 'RATE_LIMITED':
      return new ProblemError(
        429,
        failure.kind,
        'A code was sent to this address a moment ago. Wait before asking for another.',
        {
          headers: { 'retry-after': String(failure.retryAfter) },
          extensions: { retry_after: failure.retryAfter },
        },
      )
    case 'OTP_BLOCKED':
      return new ProblemError(
        423,
        failure.kind,
        'Too many wrong codes. Codes for this address are blocked for a while.',
        {
          headers: { 'retry-after': String(secondsUntil(failure.blockedUntil)) },
          extensions: { blocked_until: failure.blockedUntil.toISOString() },
        },
      )
    case 'MESSAGE_NOT_DELIVERED':
      return new ProblemError(
        502,
        failure.kind,
        'The code could not be delivered. Check the address or number, or try again later.',
      )
    // 400, not 401: a 401 means "your session failed" to the app's auth proxy.
    case 'OTP_INVALID':
      return new ProblemError(400, failure.kind, 'The code is wrong or has already been used.', {
        extensions: { attempts_left: failure.attemptsLeft },
      })
    case 'OTP_EXPIRED':
      return new ProblemError(419, failure.kind, 'The code has expired. Ask for a new one.', {
        title: 'Verification Expired',
      })
    case 'USER_BLOCKED':
      return new ProblemError(423, failure.kind, 'This account is blocked.')
    case 'CONTACT_TAKEN':
      return failure.channel === 'email'
        ? new ProblemError(409, 'EMAIL_TAKEN', 'Another account already uses this e-mail.')
        : new ProblemError(409, 'PHONE_TAKEN', 'Another account already uses this phone number.')
    case 'NO_CONTACT':
      return new ProblemError(
        409,
        failure.kind,
        'This account has no e-mail or phone to send a code to. Use another way to confirm.',
      )
    case 'CONTACT_UNCHANGED':
      return failure.channel === 'email'
        ? invalidField('/body/email', 'is already your e-mail')
        : invalidField('/body/phone', 'is already your phone number')
    default:
      return assertNever(failure)
  }
}

export const translate = (error: unknown) =>
  error instanceof OtpError ? toProblem(error.failure) : undefined
