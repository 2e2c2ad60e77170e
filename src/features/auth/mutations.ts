import { useMutation } from '@tanstack/react-query'
import type { EmailPasswordBody, TokenPair } from '../../../contract/auth.ts'
import type {
  EmailOtpRequest,
  EmailOtpVerify,
  OtpSent,
  PasswordResetConfirm,
  PasswordResetRequest,
  PhoneOtpRequest,
  PhoneOtpVerify,
} from '../../../contract/otp.ts'
import type { TelegramSignInBody, TelegramSignUpBody } from '../../../contract/telegram.ts'
import type { Language } from '../../i18n/i18n.tsx'
import { api } from '../../net/api.ts'
import type { CodeCheck } from '../../ui/otp-steps.tsx'

/*
 * The answers carry the token pair, but the page never keeps it: the auth
 * proxy (worker or page) stores it in the vault on the way back.
 */

/**
 * Whether someone has signed in on this device, kept outside any session: a
 * first visit is greeted "Welcome", a return "Welcome back" (issue 27). Every
 * sign-in and sign-up of this feature marks it (a passkey's, in the security
 * feature, does not: its person is greeted as new until they sign in here once).
 */
const SIGNED_IN_BEFORE = 'signedInBefore'
export function markSignedIn(): void {
  try {
    localStorage.setItem(SIGNED_IN_BEFORE, '1')
  } catch {
    // Storage refused: the next visit is greeted as a first one, nothing worse.
  }
}
export function signedInBefore(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_BEFORE) === '1'
  } catch {
    return false
  }
}

export const useSignIn = () =>
  useMutation({
    onSuccess: markSignedIn,
    mutationFn: (body: EmailPasswordBody) =>
      api.v2.post<TokenPair>('/auth/sign-in/password/email', body),
  })

export const useSignUp = () =>
  useMutation({
    onSuccess: markSignedIn,
    mutationFn: (body: EmailPasswordBody) =>
      api.v2.post<TokenPair>('/auth/sign-up/password/email', body),
  })

/** Sends a sign-in code; the first code to a new address or number creates the account. */
export const useSendSignInCode = (channel: 'email' | 'sms', language: Language) =>
  useMutation({
    mutationFn: (target: string) =>
      channel === 'email'
        ? api.v2.post<OtpSent>('/auth/sign-in/omni/email/otp', {
            email: target,
            language,
          } satisfies EmailOtpRequest)
        : api.v2.post<OtpSent>('/auth/sign-in/omni/phone/otp', {
            phone: target,
            language,
          } satisfies PhoneOtpRequest),
  })

export const useVerifySignInCode = (channel: 'email' | 'sms') =>
  useMutation({
    onSuccess: markSignedIn,
    mutationFn: ({ target, code }: CodeCheck) =>
      channel === 'email'
        ? api.v2.post<TokenPair>('/auth/verify/email/otp', {
            email: target,
            token: code,
            type: 'email',
          } satisfies EmailOtpVerify)
        : api.v2.post<TokenPair>('/auth/verify/phone/otp', {
            phone: target,
            token: code,
            type: 'sms',
          } satisfies PhoneOtpVerify),
  })

/** Signs in with the Mini App's launch init data; 404 USER_NOT_FOUND: sign up first. */
export const useTelegramSignIn = () =>
  useMutation({
    onSuccess: markSignedIn,
    mutationFn: (initData: string) =>
      api.v2.post<TokenPair>('/auth/sign-in/telegram', {
        init_data: initData,
      } satisfies TelegramSignInBody),
  })

/** Creates the account of the Telegram launch user, once they agreed to the terms. */
export const useTelegramSignUp = () =>
  useMutation({
    onSuccess: markSignedIn,
    mutationFn: (initData: string) =>
      api.v2.post<TokenPair>('/auth/sign-up/telegram', {
        init_data: initData,
        terms_accepted: true,
      } satisfies TelegramSignUpBody),
  })

/** `{ email }` or `{ phone }`: the contact a reset names, as the code steps give it. */
const contact = (channel: 'email' | 'sms', target: string) =>
  channel === 'email' ? { email: target } : { phone: target }

/** Asks for a password-reset code; answered the same whether an account has the contact or not. */
export const useRequestPasswordReset = (channel: 'email' | 'sms', language: Language) =>
  useMutation({
    mutationFn: (target: string) =>
      api.v2.post<OtpSent>('/auth/password/reset', {
        ...contact(channel, target),
        language,
      } satisfies PasswordResetRequest),
  })

/** The code and the new password: every other session ends, and this one is signed in. */
export const useResetPassword = (channel: 'email' | 'sms') =>
  useMutation({
    onSuccess: markSignedIn,
    mutationFn: (input: { target: string; code: string; password: string }) =>
      api.v2.post<TokenPair>('/auth/password/reset/confirm', {
        ...contact(channel, input.target),
        token: input.code,
        new_password: input.password,
      } as PasswordResetConfirm),
  })
