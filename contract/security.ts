import { type Static, Type } from '@sinclair/typebox'
import { Email } from './auth.ts'
import { oneOf } from './enums.ts'
import { OtpToken } from './otp.ts'
import { Page } from './pagination.ts'

/*
 * Issue 21: passkeys (WebAuthn), the second look before sensitive acts
 * (step-up), and the person's sessions and devices.
 */

/** How a session can prove, right now, that its person is present. */
export const STEP_UP_METHODS = ['passkey', 'otp', 'telegram_biometrics'] as const
export type StepUpMethod = (typeof STEP_UP_METHODS)[number]

/** The problem code of a sensitive call made without a fresh proof (403). */
export const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED'

/** Seconds a proof of presence stays good for its session. */
export const STEP_UP_WINDOW_SECONDS = 300

const Base64Url = Type.String({ minLength: 1, maxLength: 16_384, pattern: '^[A-Za-z0-9_-]*$' })

const Transports = Type.Array(
  oneOf(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const),
  { maxItems: 8 },
)

/** What `startRegistration` of @simplewebauthn/browser hands back (RegistrationResponseJSON). */
export const RegistrationResponse = Type.Object(
  {
    id: Base64Url,
    rawId: Base64Url,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url,
        attestationObject: Base64Url,
        authenticatorData: Type.Optional(Base64Url),
        transports: Type.Optional(Transports),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(Base64Url),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(oneOf(['platform', 'cross-platform'] as const)),
    clientExtensionResults: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
)
export type RegistrationResponse = Static<typeof RegistrationResponse>

/** What `startAuthentication` hands back (AuthenticationResponseJSON). */
export const AuthenticationResponse = Type.Object(
  {
    id: Base64Url,
    rawId: Base64Url,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url,
        authenticatorData: Base64Url,
        signature: Base64Url,
        userHandle: Type.Optional(Base64Url),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: Type.Optional(oneOf(['platform', 'cross-platform'] as const)),
    clientExtensionResults: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
)
export type AuthenticationResponse = Static<typeof AuthenticationResponse>

/**
 * The options for `navigator.credentials.create()/get()` as JSON
 * (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON): handed to
 * @simplewebauthn/browser as they come.
 */
export const WebAuthnOptions = Type.Object(
  { challenge: Type.String() },
  { additionalProperties: true },
)
export type WebAuthnOptions = Static<typeof WebAuthnOptions> & Record<string, unknown>

/** `POST /user/passkeys` */
export const RegisterPasskeyBody = Type.Object(
  {
    response: RegistrationResponse,
    /** Shown in the list; defaults to the device the browser names in its user agent. */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
)
export type RegisterPasskeyBody = Static<typeof RegisterPasskeyBody>

export const Passkey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  /** multiDevice: synced (iCloud Keychain, Google Password Manager); singleDevice: a key or one device. */
  device_type: oneOf(['singleDevice', 'multiDevice'] as const),
  backed_up: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type Passkey = Static<typeof Passkey>

export const PasskeyList = Type.Object({ data: Type.Array(Passkey) })
export type PasskeyList = Static<typeof PasskeyList>

/** `POST /auth/sign-in/passkey/options`: an e-mail narrows the choice to that person's passkeys. */
export const PasskeySignInOptionsBody = Type.Object(
  { email: Type.Optional(Email) },
  { additionalProperties: false },
)
export type PasskeySignInOptionsBody = Static<typeof PasskeySignInOptionsBody>

/** `POST /auth/sign-in/passkey` and `POST /user/step-up/passkey` */
export const PasskeyAssertionBody = Type.Object(
  { response: AuthenticationResponse },
  { additionalProperties: false },
)
export type PasskeyAssertionBody = Static<typeof PasskeyAssertionBody>

/** `GET /user/step-up`: what this session can prove itself with, and until when it is proven. */
export const StepUpStatus = Type.Object({
  methods: Type.Array(oneOf(STEP_UP_METHODS)),
  /** Where a one-time code would go, masked ("a•••@example.com"); null: no contact. */
  otp_destination: Type.Union([Type.String(), Type.Null()]),
  otp_channel: Type.Union([oneOf(['email', 'sms'] as const), Type.Null()]),
  /** Until when the last proof counts; null: no fresh proof. */
  fresh_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type StepUpStatus = Static<typeof StepUpStatus>

/** The answer to every proof: until when the session is stepped up. */
export const StepUpProof = Type.Object({
  method: oneOf(STEP_UP_METHODS),
  fresh_until: Type.String({ format: 'date-time' }),
})
export type StepUpProof = Static<typeof StepUpProof>

/** `POST /user/step-up/otp` */
export const StepUpOtpBody = Type.Object({ token: OtpToken }, { additionalProperties: false })
export type StepUpOtpBody = Static<typeof StepUpOtpBody>

/** `POST /user/step-up/telegram-biometrics`: the token the Mini App's BiometricManager unlocked. */
export const TelegramBiometricBody = Type.Object(
  { token: Type.String({ minLength: 16, maxLength: 256 }) },
  { additionalProperties: false },
)
export type TelegramBiometricBody = Static<typeof TelegramBiometricBody>

/** `POST /user/step-up/telegram-biometrics/enrol`: the token to keep behind biometrics. */
export const TelegramBiometricEnrolment = Type.Object({ token: Type.String() })
export type TelegramBiometricEnrolment = Static<typeof TelegramBiometricEnrolment>

export const SignInMethod = oneOf(['password', 'otp', 'telegram', 'passkey'] as const)

/** What a session can set up that watches or acts for the person (issue 26). */
export const SESSION_CREATION_KINDS = ['webhook_endpoint', 'push_subscription', 'api_key'] as const
export type SessionCreationKind = (typeof SESSION_CREATION_KINDS)[number]

/**
 * One thing a session created: a webhook endpoint (named by its description,
 * else its URL), a push subscription (by its device, null when unknown) or an
 * enabled API key (by its name).
 */
export const SessionCreation = Type.Object({
  kind: oneOf(SESSION_CREATION_KINDS),
  id: Type.String({ format: 'uuid' }),
  name: Type.Union([Type.String(), Type.Null()]),
})
export type SessionCreation = Static<typeof SessionCreation>

/** One signed-in session of the person (`GET /user/sessions`). */
export const Session = Type.Object({
  id: Type.String({ format: 'uuid' }),
  /** "Chrome, macOS", "Safari, iPhone", from the user agent; null when none was sent. */
  device: Type.Union([Type.String(), Type.Null()]),
  app_env: Type.Union([oneOf(['web', 'telegram'] as const), Type.Null()]),
  /** An approximate place when the server has a local IP database; otherwise the IP address. */
  location: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  sign_in_method: Type.Union([SignInMethod, Type.Null()]),
  new_device: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  last_seen_at: Type.String({ format: 'date-time' }),
  current: Type.Boolean(),
  /** What it set up that still watches or acts: sign-out-others can remove it. */
  created: Type.Array(SessionCreation),
})
export type Session = Static<typeof Session>

export const SessionList = Page(Session)
export type SessionList = Static<typeof SessionList>

/** `POST /user/sessions/sign-out-others`; no body: `remove_created: false`. */
export const SignOutOthersBody = Type.Union([
  Type.Object(
    {
      /** Also remove what the ended sessions created (API keys: disabled). */
      remove_created: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
])
export type SignOutOthersBody = Static<typeof SignOutOthersBody>

/** `POST /user/sessions/sign-out-others`: how many ended, and what of theirs was removed. */
export const SessionsEnded = Type.Object({
  ended: Type.Integer({ minimum: 0 }),
  removed: Type.Array(SessionCreation),
})
export type SessionsEnded = Static<typeof SessionsEnded>
