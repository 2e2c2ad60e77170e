/*
 * The words of a push notification, a bot message and a security e-mail
 * (messages.ts, control-wording.ts, rules.ts), in each language the product
 * speaks (contract/languages.ts): the activity feed's words, as the app's
 * catalogues (src/i18n) say them. English here sets the shape; every other
 * language is a `Words` in message-words-<language>.ts, so a phrase one of
 * them lacks fails the type check.
 */
import type { AutoTopUpFailure } from '../../../contract/auto-top-up.ts'
import type { CardChannel, DisputeStatus } from '../../../contract/card-choices.ts'
import type { Language } from '../../../contract/languages.ts'
import { ar } from './message-words-ar.ts'
import { de } from './message-words-de.ts'
import { es } from './message-words-es.ts'
import { fa } from './message-words-fa.ts'
import { id } from './message-words-id.ts'
import { ptBR } from './message-words-pt-br.ts'
import { ru } from './message-words-ru.ts'
import { tr } from './message-words-tr.ts'
import { uk } from './message-words-uk.ts'

export type { Language }

export type Data = Record<string, unknown>
export const text = (data: Data, key: string) => (typeof data[key] === 'string' ? data[key] : '')

/** The parts of a message's line that have something to say, joined as the feed joins them. */
export const line = (...parts: string[]) => parts.filter(Boolean).join(' · ')

/** A phrase of a table keyed by a payload's code, if the code is one of its keys. */
export const known = (table: Readonly<Record<string, string>>, code: string) =>
  Object.hasOwn(table, code) ? table[code] : undefined

const en = {
  cardPayment: 'Card payment',
  cardSettled: 'Card payment settled',
  cardReversed: 'Reversed · nothing charged',
  cardRefund: 'Refund to your card',
  cardClosed: (last4: string) => `Card ·· ${last4} closed`,
  cardReturned: (amount: string) => `${amount} back in your wallet`,
  cardClosedLine: 'It can no longer pay.',
  feeIssue: 'Card issue fee',
  feeMonthly: 'Card monthly fee',
  feeDeclined: 'Not charged: not enough money on the card. The card still works.',
  declined: 'Declined',
  declines: {
    CARD_FROZEN: 'Declined: the card was frozen',
    CARD_BLOCKED: 'Declined: the card is blocked',
    CARD_INACTIVE: 'Declined: the card is not activated',
    CARD_CANCELED: 'Declined: the card is canceled',
    CARD_CLOSED: 'Declined: the card is closed',
    ACCOUNT_UNAVAILABLE: 'Declined: the card’s account is not active',
    LIMIT_EXCEEDED: 'Declined: over a spending limit',
    INSUFFICIENT_FUNDS: 'Declined: not enough money on the account',
    THREE_DS_FAILED: 'Declined: not confirmed with the card’s one-time code',
  },
  deposit: (currency: string) => `${currency} deposit`,
  onItsWay: 'On its way',
  arrived: 'Arrived',
  exchange: (from: string, to: string) => `Exchange ${from} → ${to}`,
  exchangedFor: (paid: string) => `For ${paid}`,
  to: (name: string) => `To ${name}`,
  from: (name: string) => `From ${name}`,
  sent: (currency: string) => `Sent ${currency}`,
  sentLine: 'Sent',
  bankIn: 'Bank transfer in',
  topUpOf: (last4: string) => `Top-up of card ·· ${last4}`,
  topUp: 'Card account top-up',
  toCard: (amount: string) => `${amount} to the card`,
  fee: (amount: string) => `${amount} fee`,
  failures: {
    ADDRESS_REJECTED:
      'Didn’t go through: the network refused the address. The money is back in your wallet.',
    ACCOUNT_CLOSED:
      'Didn’t go through: the recipient’s account is closed. The money is back in your wallet.',
  },
  failed: 'Didn’t go through. Any money set aside is back in your wallet.',
  placed: 'Placed. The money is set aside until it goes through.',
  awaitingTransfer: (reference: string) =>
    `Waiting for your bank transfer. Reference: ${reference}`,
  canceled: 'Cancelled. Anything set aside is back in your wallet.',
  identity: 'Identity verification',
  kycApproved: 'You’re verified',
  kycPending: 'Your documents are being checked',
  kycAttention: 'Your verification needs your attention',
  newDevice: 'Sign-in from a new device',
  newDeviceLine: 'If this wasn’t you, change your password in Sign-in and security.',
  passwordChanged: 'Password changed',
  passwordChangedLine: 'If this wasn’t you, reset your password from the sign-in screen.',
  apiKey: 'API key created',
  apiKeyRotated: 'API key given a new secret',
  apiKeyChanged: 'API key changed',
  webhookAdded: 'Webhook endpoint added',
  webhookSecret: 'Webhook given a new secret',
  webhookUrl: 'Webhook address changed',
  pushOn: 'Push notifications turned on',
  newDeviceName: 'A new device',
  passkeyAdded: 'Passkey added',
  passkeyRemoved: 'Passkey removed',
  cardIssued: 'Card issued',
  virtualCard: (last4: string) => `Virtual card ·· ${last4}`,
  physicalCard: (last4: string) => `Physical card ·· ${last4}`,
  deliveryTo: (card: string, to: string) => `${card}, sent to ${to}`,
  emailChanged: 'E-mail changed',
  phoneChanged: 'Phone changed',
  now: (masked: string) => `Now ${masked}`,
  youSent: (name: string, amount: string) => `You sent ${name} ${amount}`,
  waitingFor: (amount: string, name: string) => `${amount} waiting for ${name}`,
  waitingLine: 'Waiting for them to sign up (7 days)',
  sentYou: (name: string, amount: string) => `${name} sent you ${amount}`,
  inYourWallet: 'It’s in your wallet',
  gotYour: (name: string, amount: string) => `${name} got your ${amount}`,
  claimedLine: 'They signed up and got it',
  cameBack: (amount: string) => `${amount} came back to you`,
  notClaimed: (name: string) => `${name} didn’t claim it within 7 days`,
  paidRequest: (name: string, amount: string) => `${name} paid your request: ${amount}`,
  runFailed: 'A scheduled payment didn’t go through',
  runSkipped: 'A scheduled exchange was skipped',
  runShort: (amount: string) => `Not enough money for ${amount}. The next one runs as planned.`,
  runPriceMoved: 'The price moved past your limit. The next one runs as planned.',
  runRefused: (reason: string) => `It was refused (${reason}). The next one runs as planned.`,
  open: 'Open',
  // The card's own controls (issue 30): why they declined a payment.
  channelsOff: {
    online: 'Online payments are off for this card',
    contactless: 'Contactless payments are off for this card',
    chip: 'Chip and PIN payments are off for this card',
    magstripe: 'Magnetic stripe payments are off for this card',
    atm: 'ATM withdrawals are off for this card',
  } satisfies Record<CardChannel, string>,
  channelOff: 'This way of paying is off for this card',
  categoryBlocked: (category: string) => `${category} is blocked on this card`,
  countryBlocked: 'Payments in this country are off for this card',
  merchantBlocked: 'This merchant is blocked on this card',
  categoryLimit: (category: string) => `Over this card’s limit for ${category}`,
  dispute: 'Dispute',
  disputes: {
    SUBMITTED: 'Dispute sent',
    UNDER_REVIEW: 'Dispute under review',
    WON: 'Dispute won',
    LOST: 'Dispute lost',
  } satisfies Record<DisputeStatus, string>,
  creditedWhileReviewed: (credited: string) => `${credited} while it is reviewed`,
  creditedBack: (credited: string) => `${credited} back to you`,
  autoTopUp: 'Card auto top-up',
  autoTopUpOnItsWay: 'on its way to the card',
  autoTopUpFailed: 'Auto top-up didn’t happen',
  autoTopUpFailures: {
    INSUFFICIENT_FUNDS: 'not enough in the wallet',
    DAILY_CAP_REACHED: 'today’s cap is used up',
    RATES_UNAVAILABLE: 'no exchange rate right now',
    QUOTE_REFUSED: 'the amount is outside what we can move',
    ACCOUNT_UNAVAILABLE: 'the account or wallet is unavailable',
    KYC_REQUIRED: 'verify your identity first',
  } satisfies Record<AutoTopUpFailure, string>,
  lockdownOn: 'Lockdown on',
  lockdownLifted: 'Lockdown lifted',
  lockdownLiftedLine: 'Your cards stay frozen: unfreeze them one by one.',
  /** The way out's button, on a push notification and under a bot message. */
  wayOutButton: 'That wasn’t me — lock',
  /** The way out in an e-mail: a one-time link, good for a day. */
  wayOutLine: (link: string) =>
    `Wasn’t you? Lock your account in one tap (the link works for 24 hours): ${link}`,
  // A security e-mail's own lines (rules.ts securityEmail).
  seeIt: (link: string) => `See it: ${link}`,
  securityAdvice:
    'If this wasn’t you, open Sign-in and security, sign out every other session and remove what they added.',
}

/** Every phrase of a message, as functions of what the payload says. */
export type Words = typeof en

export const WORDS: Record<Language, Words> = {
  en,
  ru,
  uk,
  de,
  es,
  'pt-BR': ptBR,
  tr,
  id,
  fa,
  ar,
}
