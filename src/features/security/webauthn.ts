import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser'
import type {
  AuthenticationResponse,
  RegistrationResponse,
  WebAuthnOptions,
} from '../../../contract/security.ts'
import { isTelegram } from '../../telegram/launch.ts'

/*
 * The browser side of passkeys, through @simplewebauthn/browser. Telegram's
 * web view has no WebAuthn: there the app never offers passkeys (the Mini App
 * signs in with Telegram and confirms with Telegram biometrics instead).
 */

export const passkeysSupported = () => !isTelegram() && browserSupportsWebAuthn()

export const autofillSupported = () =>
  passkeysSupported() ? browserSupportsWebAuthnAutofill() : Promise.resolve(false)

export async function createPasskey(options: WebAuthnOptions): Promise<RegistrationResponse> {
  return (await startRegistration({
    optionsJSON: options as never,
  })) as RegistrationResponse
}

/**
 * Asks the browser for an assertion. With `autofill`, the request waits
 * quietly behind the e-mail field (conditional UI) until the person picks a
 * passkey from its suggestions.
 */
export async function getAssertion(
  options: WebAuthnOptions,
  autofill = false,
): Promise<AuthenticationResponse> {
  return (await startAuthentication({
    optionsJSON: options as never,
    useBrowserAutofill: autofill,
  })) as AuthenticationResponse
}

/** Ends a waiting autofill request (leaving the page, or starting a modal one). */
export const cancelPasskeyRequest = () => WebAuthnAbortService.cancelCeremony()

/** The person closed the browser's sheet, or another request took its place: not an error to show. */
export const wasCancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
