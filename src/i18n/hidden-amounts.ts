import { deviceFlag } from './device-flag.ts'

/*
 * "Hide amounts" (issue 31): one tap hides every amount the app shows, as
 * "•••" — in public, on a shared screen, in a screenshot. The one money
 * formatter (money.ts) reads it, so nothing shows digits it forgot to hide;
 * the i18n provider re-renders every screen when it changes. Remembered per
 * device.
 */

/** What an amount reads while amounts are hidden. */
export const HIDDEN_AMOUNT = '•••'

const hidden = deviceFlag('amountsHidden')

/** Whether amounts are hidden on this device. */
export const amountsHidden = hidden.read
export const setAmountsHidden = hidden.set
export const subscribeAmountsHidden = hidden.subscribe
