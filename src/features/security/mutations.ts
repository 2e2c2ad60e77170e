import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ChangePasswordBody, PasswordChanged, TokenPair } from '../../../contract/auth.ts'
import type { OtpSent } from '../../../contract/otp.ts'
import type {
  Passkey,
  SessionsEnded,
  StepUpProof,
  TelegramBiometricEnrolment,
  WebAuthnOptions,
} from '../../../contract/security.ts'
import { api } from '../../net/api.ts'
import { securityKeys } from './queries.ts'
import { createPasskey, getAssertion } from './webauthn.ts'

/** Options, the browser's ceremony, the answer: one passkey added to the account. */
export function useAddPasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      const options = await api.v2.post<WebAuthnOptions>('/user/passkeys/options')
      const response = await createPasskey(options)
      return api.v2.post<Passkey>('/user/passkeys', { response })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.passkeys() }),
  })
}

export function useRemovePasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.v2.delete<void>(`/user/passkeys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.passkeys() }),
  })
}

/**
 * Changes the password (or sets the first one). The server asks for the
 * second look first; the API client asks the person in place and tries again.
 * Every other session ends: the list is read again.
 */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => api.v2.post<PasswordChanged>('/user/password', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: securityKeys.password() }),
        queryClient.invalidateQueries({ queryKey: securityKeys.sessions() }),
      ]),
  })
}

export function useEndSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.v2.delete<void>(`/user/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions() }),
  })
}

/** Signs every other session out and, with `removeCreated`, removes what they set up. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (removeCreated: boolean) =>
      api.v2.post<SessionsEnded>('/user/sessions/sign-out-others', {
        remove_created: removeCreated,
      }),
    onSuccess: (answer) =>
      // Webhooks, keys and devices belong to other features' lists: a rare act, all refetched.
      answer.removed.length > 0
        ? queryClient.invalidateQueries()
        : queryClient.invalidateQueries({ queryKey: securityKeys.sessions() }),
  })
}

/**
 * Signs in with a passkey: options, the browser's ceremony (in the e-mail
 * field's suggestions with `autofill`), the assertion. The auth proxy keeps
 * the token pair on the way back, as for every sign-in.
 */
export const usePasskeySignIn = () =>
  useMutation({
    mutationFn: async (mode: { autofill: boolean; signal?: AbortSignal }) => {
      const options = await api.v2.post<WebAuthnOptions>('/auth/sign-in/passkey/options', {})
      const response = await getAssertion(options, mode.autofill)
      return api.v2.post<TokenPair>('/auth/sign-in/passkey', { response })
    },
  })

export const useSendStepUpCode = () =>
  useMutation({ mutationFn: () => api.v2.post<OtpSent>('/user/step-up/otp/send') })

export const useVerifyStepUpCode = () =>
  useMutation({
    mutationFn: (token: string) => api.v2.post<StepUpProof>('/user/step-up/otp', { token }),
  })

export const usePasskeyStepUp = () =>
  useMutation({
    mutationFn: async () => {
      const options = await api.v2.post<WebAuthnOptions>('/user/step-up/passkey/options')
      const response = await getAssertion(options)
      return api.v2.post<StepUpProof>('/user/step-up/passkey', { response })
    },
  })

/** The token the Mini App keeps behind Telegram biometrics. */
export const enrolTelegramBiometrics = () =>
  api.v2.post<TelegramBiometricEnrolment>('/user/step-up/telegram-biometrics/enrol')

export const proveWithTelegramBiometrics = (token: string) =>
  api.v2.post<StepUpProof>('/user/step-up/telegram-biometrics', { token })
