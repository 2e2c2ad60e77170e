import { deviceFlag } from './device-flag.ts'

/*
 * Latin digits by choice (issue 34). Persian is written with its own digits
 * (۱۲۳) by default; a reader who prefers 0123 chooses them on the profile.
 * Every Intl formatter of the app takes its locale from `formatLocale` (a test
 * holds it: formatters.test.ts), so one choice turns every amount, date, time
 * and percentage. Kept on this device, as the theme is; the i18n provider
 * draws every screen again when it changes.
 */

/** Whether the person chose Latin digits on this device (`read`), the choice (`set`), its changes. */
export const latinDigits = deviceFlag('latinDigits')

/** The locale the app formats `language` in: "fa", or "fa-u-nu-latn" with Latin digits chosen. */
export const formatLocale = (language: string): string =>
  latinDigits.read() ? `${language}-u-nu-latn` : language
