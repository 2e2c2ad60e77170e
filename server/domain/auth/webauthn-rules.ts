import { STEP_UP_WINDOW_SECONDS, type StepUpMethod } from '../../../contract/security.ts'

/*
 * Pure rules of issue 21: the freshness of a proof of presence, which proofs
 * a session can offer, and what a user agent says about the device. No IO
 * here. The relying party's rule is the tenant's (tenants/relying-party-rules.ts).
 */

/** Until when a proof given at `provenAt` counts; null for none. */
export function freshUntil(provenAt: Date | null): Date | null {
  return provenAt && new Date(provenAt.getTime() + STEP_UP_WINDOW_SECONDS * 1000)
}

/** Whether a session proven at `provenAt` may make a sensitive call at `now`. */
export function isFresh(provenAt: Date | null, now: Date): boolean {
  const until = freshUntil(provenAt)
  return until !== null && until > now
}

/**
 * The proofs a session can give: a passkey on the web when the person has
 * one (WebAuthn does not exist in Telegram's web view), Telegram biometrics in
 * the Mini App once enrolled, a one-time code whenever they have an e-mail or
 * phone. In the order the app offers them.
 */
export function stepUpMethods(facts: {
  appEnv: 'web' | 'telegram' | null
  hasPasskey: boolean
  hasTelegramBiometrics: boolean
  hasContact: boolean
}): StepUpMethod[] {
  const methods: StepUpMethod[] = []
  if (facts.appEnv !== 'telegram' && facts.hasPasskey) methods.push('passkey')
  if (facts.appEnv === 'telegram' && facts.hasTelegramBiometrics) {
    methods.push('telegram_biometrics')
  }
  if (facts.hasContact) methods.push('otp')
  return methods
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdgA?\/|\bEdg\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

/**
 * "Chrome, macOS", "Safari, iPhone" (read the same in every language) — enough for a person to recognise
 * their own device in a list; the full user agent is never shown. Null when
 * there is nothing to go on.
 */
export function describeDevice(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (browser && system) return `${browser}, ${system}`
  return browser ?? system ?? userAgent.slice(0, 40)
}
