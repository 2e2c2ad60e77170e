import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import {
  decodeAttestationObject,
  isoBase64URL,
  parseAuthenticatorData,
} from '@simplewebauthn/server/helpers'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { TokenPair } from '../../../contract/auth.ts'
import { normaliseName } from '../../../contract/names.ts'
import type {
  AuthenticationResponse,
  Passkey,
  RegistrationResponse,
  WebAuthnOptions,
} from '../../../contract/security.ts'
import type { DB } from '../../infra/db/schema.ts'
import { DomainError } from '../failure.ts'
import { normaliseEmail } from '../otp/rules.ts'
import { emitEvent } from '../outbox.ts'
import type { Owner, OwnerSession } from '../owner.ts'
import type { RequestContext } from '../request-context.ts'
import * as authRepo from './repository.ts'
import * as repo from './security-repository.ts'
import type { AuthService } from './service.ts'
import { describeDevice } from './webauthn-rules.ts'

/** The failures of the passkey use cases; security-routes.ts maps each to its answer. */
export type PasskeyFailure =
  /** The challenge is unknown, used, expired, or was handed to another session or purpose. */
  | { kind: 'PASSKEY_CHALLENGE_INVALID' }
  /** The signature, origin, RP id, counter or attestation does not check out, or no such passkey. */
  | { kind: 'PASSKEY_INVALID'; reason: string }
  /** The authenticator saw someone present but did not verify them (no PIN or biometrics: UV off). */
  | { kind: 'PASSKEY_USER_NOT_VERIFIED' }
  | { kind: 'PASSKEY_EXISTS' }
  | { kind: 'PASSKEY_NOT_FOUND' }

export class PasskeyError extends DomainError<PasskeyFailure> {}

/** The relying party a tenant's passkeys are bound to. */
export interface RelyingParty {
  rpId: string
  rpName: string
  origins: string[]
}

/** Seconds a ceremony's challenge stays usable (the browser's own timeout is 60 s). */
const CHALLENGE_TTL_SECONDS = 300
const TIMEOUT_MS = 60_000

type PasskeyRow = Awaited<ReturnType<typeof repo.listPasskeys>>[number]

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  device_type: row.device_type,
  backed_up: row.backed_up,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
})

/** A user id as WebAuthn's user handle: the UUID's 16 bytes. */
const userHandle = (userId: string) => Buffer.from(userId.replaceAll('-', ''), 'hex')
const userIdOf = (handle: string) => {
  const hex = Buffer.from(handle, 'base64url').toString('hex')
  return hex.length === 32
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : undefined
}

/** The challenge the browser signed, read from its client data (checked again by the library). */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'))
    return typeof data?.challenge === 'string' ? data.challenge : ''
  } catch {
    return ''
  }
}

/**
 * Whether the authenticator verified the person (the UV flag, WebAuthn §6.1),
 * read from the authenticator data of an assertion or of a registration's
 * attestation; undefined when the data does not parse (the library's own
 * checks then refuse it as PASSKEY_INVALID).
 */
function userVerified(
  response: AuthenticationResponse | RegistrationResponse,
): boolean | undefined {
  try {
    const data =
      'attestationObject' in response.response
        ? decodeAttestationObject(isoBase64URL.toBuffer(response.response.attestationObject)).get(
            'authData',
          )
        : isoBase64URL.toBuffer(response.response.authenticatorData)
    return parseAuthenticatorData(data).flags.uv
  } catch {
    return undefined
  }
}

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registering one from a signed-in
 * session, signing in with one (discoverable credentials: no e-mail needed),
 * and proving presence with one (step-up). Every challenge is stored, bound to
 * its purpose (and session), and taken out of play before its answer is
 * checked, so an assertion replays nowhere. Origins and the RP id are the
 * tenant's (tenants.webauthn_*), else the server's (WEBAUTHN_*).
 *
 * Every ceremony requires user verification (a PIN, a fingerprint, a face):
 * a passkey is a sign-in and a second look on its own, so "someone touched
 * the key" (user presence alone) is not enough — a stolen security key or an
 * unlocked laptop would be the person.
 */
export class PasskeyService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly auth: AuthService,
    private readonly defaults: { rpId: string; origins: string[] },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async relyingParty(tenantId: string): Promise<RelyingParty> {
    const row = await repo.findRelyingParty(this.db, tenantId)
    return {
      rpId: row?.webauthn_rp_id ?? this.defaults.rpId,
      rpName: row?.name ?? 'Finplatform',
      origins: row?.webauthn_origins ?? this.defaults.origins,
    }
  }

  async list(owner: Owner): Promise<Passkey[]> {
    return (await repo.listPasskeys(this.db, owner)).map(toPasskey)
  }

  /** Removes it and tells the person on every channel. @throws PasskeyError PASSKEY_NOT_FOUND */
  async remove(owner: Owner, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const name = await repo.deletePasskey(trx, owner, id)
      if (name === undefined) throw new PasskeyError({ kind: 'PASSKEY_NOT_FOUND' })
      await emitEvent(trx, {
        ...owner,
        kind: 'security.passkey_removed',
        payload: { passkey_id: id, name },
      })
    })
  }

  /** Options for `startRegistration`; the person's passkeys are excluded (one per authenticator). */
  async registrationOptions(session: OwnerSession): Promise<WebAuthnOptions> {
    const rp = await this.relyingParty(session.tenantId)
    const existing = await repo.listPasskeys(this.db, session)
    const names = await repo.findAccountNames(this.db, session)
    const login = names?.email ?? (names?.phone && `+${names.phone}`) ?? names?.username
    const fullName = [names?.first_name, names?.last_name].filter(Boolean).join(' ')
    const user = { name: login || session.userId, displayName: fullName || login || '' }
    const options = await generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpId,
      userName: user.name,
      userDisplayName: user.displayName,
      userID: userHandle(session.userId),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credential_id,
        transports: passkey.transports as AuthenticatorTransport[],
      })),
      // Discoverable: the passkey itself names the account at sign-in.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    })
    await this.remember(options.challenge, session.tenantId, 'register', session.sessionId)
    return options as unknown as WebAuthnOptions
  }

  /**
   * @throws PasskeyError PASSKEY_CHALLENGE_INVALID, PASSKEY_INVALID, PASSKEY_USER_NOT_VERIFIED,
   *   PASSKEY_EXISTS
   */
  async register(
    session: OwnerSession,
    response: RegistrationResponse,
    input: { name: string | undefined; userAgent: string | undefined },
  ): Promise<Passkey> {
    const now = this.clock()
    const rp = await this.relyingParty(session.tenantId)
    const challenge = challengeOf(response.response.clientDataJSON)
    await this.take(challenge, session.tenantId, 'register', session.sessionId, now)
    if (userVerified(response) === false) {
      throw new PasskeyError({ kind: 'PASSKEY_USER_NOT_VERIFIED' })
    }
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    }).catch((error: Error) => {
      throw new PasskeyError({ kind: 'PASSKEY_INVALID', reason: error.message })
    })
    if (!verification.verified) {
      throw new PasskeyError({ kind: 'PASSKEY_INVALID', reason: 'not verified' })
    }
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo
    const row = await this.db.transaction().execute(async (trx) => {
      const added = await repo.insertPasskey(trx, {
        id: uuidv7(),
        tenantId: session.tenantId,
        userId: session.userId,
        credentialId: credential.id,
        publicKey: credential.publicKey,
        signCount: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        name: normaliseName(input.name ?? '') || describeDevice(input.userAgent) || 'Passkey',
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        now,
      })
      if (!added) throw new PasskeyError({ kind: 'PASSKEY_EXISTS' })
      // A new way into the account: told on every channel (a security kind).
      await emitEvent(trx, {
        tenantId: session.tenantId,
        userId: session.userId,
        kind: 'security.passkey_added',
        payload: { passkey_id: added.id, name: added.name },
      })
      return added
    })
    return toPasskey(row)
  }

  /**
   * Options for `startAuthentication` at sign-in. Without an e-mail, no
   * credentials are listed: the browser offers the passkeys it holds for the
   * RP (conditional UI in the e-mail field). With one, that person's passkeys
   * are listed — or none when there is no such person, so the answer does not
   * tell who has an account.
   */
  async signInOptions(tenantId: string, email: string | undefined): Promise<WebAuthnOptions> {
    const rp = await this.relyingParty(tenantId)
    let allow: PasskeyRow[] = []
    if (email) {
      const user = await authRepo.findUserByEmail(this.db, tenantId, normaliseEmail(email))
      if (user) allow = await repo.listPasskeys(this.db, { tenantId, userId: user.id })
    }
    return this.authenticationOptions(rp, allow, tenantId, 'sign_in', null)
  }

  /**
   * Signs in with a passkey; the session starts stepped up (a passkey proves presence).
   * @throws PasskeyError PASSKEY_CHALLENGE_INVALID, PASSKEY_INVALID, PASSKEY_USER_NOT_VERIFIED;
   *   AuthError USER_BLOCKED
   */
  async signIn(context: RequestContext, response: AuthenticationResponse): Promise<TokenPair> {
    const now = this.clock()
    const challenge = challengeOf(response.response.clientDataJSON)
    await this.take(challenge, context.tenantId, 'sign_in', null, now)
    const passkey = await this.check(context.tenantId, response, challenge, undefined, now)
    return this.db
      .transaction()
      .execute((trx) => this.auth.startSession(trx, context, passkey.user_id, 'passkey'))
  }

  /** Options for a step-up: only the person's own passkeys. */
  async stepUpOptions(session: OwnerSession): Promise<WebAuthnOptions> {
    const rp = await this.relyingParty(session.tenantId)
    const allow = await repo.listPasskeys(this.db, session)
    if (allow.length === 0) throw new PasskeyError({ kind: 'PASSKEY_NOT_FOUND' })
    return this.authenticationOptions(rp, allow, session.tenantId, 'step_up', session.sessionId)
  }

  /**
   * Checks a step-up assertion: the challenge of this session, a passkey of
   * this person. Then runs `onValid` (the stamp on the session).
   * @throws PasskeyError PASSKEY_CHALLENGE_INVALID, PASSKEY_INVALID, PASSKEY_USER_NOT_VERIFIED
   */
  async stepUp<T>(
    session: OwnerSession,
    response: AuthenticationResponse,
    onValid: (trx: Transaction<DB>, now: Date) => Promise<T>,
  ): Promise<T> {
    const now = this.clock()
    const challenge = challengeOf(response.response.clientDataJSON)
    await this.take(challenge, session.tenantId, 'step_up', session.sessionId, now)
    await this.check(session.tenantId, response, challenge, session.userId, now)
    return this.db.transaction().execute((trx) => onValid(trx, now))
  }

  private async authenticationOptions(
    rp: RelyingParty,
    allow: PasskeyRow[],
    tenantId: string,
    purpose: 'sign_in' | 'step_up',
    sessionId: string | null,
  ): Promise<WebAuthnOptions> {
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      timeout: TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials: allow.map((passkey) => ({
        id: passkey.credential_id,
        transports: passkey.transports as AuthenticatorTransport[],
      })),
    })
    await this.remember(options.challenge, tenantId, purpose, sessionId)
    return options as unknown as WebAuthnOptions
  }

  /**
   * The signature, origin, RP id and counter of an assertion; the passkey
   * must be the tenant's (and `userId`'s, when given). Moves the counter.
   */
  private async check(
    tenantId: string,
    response: AuthenticationResponse,
    challenge: string,
    userId: string | undefined,
    now: Date,
  ): Promise<PasskeyRow> {
    const invalid = (reason: string) => new PasskeyError({ kind: 'PASSKEY_INVALID', reason })
    if (userVerified(response) === false) {
      throw new PasskeyError({ kind: 'PASSKEY_USER_NOT_VERIFIED' })
    }
    const passkey = await repo.findPasskeyByCredential(this.db, tenantId, response.id)
    if (!passkey) throw invalid('no such passkey')
    if (userId !== undefined && passkey.user_id !== userId)
      throw invalid('another person’s passkey')
    const handle = response.response.userHandle
    if (handle && userIdOf(handle) !== passkey.user_id) throw invalid('user handle mismatch')
    const rp = await this.relyingParty(tenantId)
    const counter = Number(passkey.sign_count)
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: true,
    }).catch((error: Error) => {
      // A counter that did not move forward lands here too: a cloned authenticator.
      throw invalid(error.message)
    })
    if (!verification.verified) throw invalid('not verified')
    const { newCounter, credentialBackedUp } = verification.authenticationInfo
    const advanced = await repo.advancePasskey(
      this.db,
      { id: passkey.id, from: counter, to: newCounter, backedUp: credentialBackedUp },
      now,
    )
    if (!advanced) throw invalid('the counter moved meanwhile')
    return passkey
  }

  private async remember(
    challenge: string,
    tenantId: string,
    purpose: 'register' | 'sign_in' | 'step_up',
    sessionId: string | null,
  ) {
    const now = this.clock()
    // Sign-in options are public: old challenges are cleared as new ones are made.
    await repo.pruneChallenges(this.db, now)
    await repo.insertChallenge(this.db, {
      challenge,
      tenantId,
      purpose,
      sessionId,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
    })
  }

  private async take(
    challenge: string,
    tenantId: string,
    purpose: 'register' | 'sign_in' | 'step_up',
    sessionId: string | null,
    now: Date,
  ) {
    const taken =
      challenge !== '' &&
      (await repo.takeChallenge(this.db, { challenge, tenantId, purpose, sessionId }, now))
    if (!taken) throw new PasskeyError({ kind: 'PASSKEY_CHALLENGE_INVALID' })
  }
}
