import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { LockdownAct } from '../contract/lockdown.ts'
import { keepsAutoTopUpOn } from './domain/auto-top-up/routes.ts'
import { loosensCardControls, raisesCardLimits } from './domain/cards/limits-step-up.ts'
import type { KeyAction } from './domain/developer/rules.ts'
import { firstPaymentToRequester } from './domain/payment-requests/second-look.ts'
import { movesMoneyOutLater } from './domain/schedules/second-look.ts'
import { firstPaymentToNewPayee } from './domain/transfers/second-look.ts'

/**
 * # One policy per route
 *
 * Every route of the API — /api/v1, /api/v2 and the sandbox's /api/sandbox —
 * is named here, as the OpenAPI document spells it, with its guard. Routes
 * files declare none: route-guards.ts turns each entry into the mechanisms
 * (`config.public`, `sessionOnly`, the key's action, the second look, the
 * limits, the document's `security`), and a route registered without an entry
 * stops the server at boot. route-policy.test.ts walks the generated document
 * both ways: no route without an entry, no entry without a route.
 *
 * The rule for the second look (a proof of presence at most 5 minutes old,
 * auth/step-up.ts): whatever moves money out or makes it movable, lets someone
 * watch, or takes the account. A route that needs it only for some calls (limits
 * raised, not lowered) names a predicate. A key never gives the second look: it
 * may make such a call only where its entry names a key action — a payout with a
 * PRODUCTION key bound to an IP allow-list (developer/rules.ts) — and never
 * manages keys, webhooks, push, passkeys or sessions.
 *
 * A lockdown ("That wasn't me", issue 30) refuses the acts a thief cashes out
 * or stays in with: each entry that names its act in `refusedInLockdown`
 * answers 409 LOCKDOWN_ACTIVE while the person is locked down, whoever calls
 * (their session or their key), before the second look is asked for.
 */

/** A rate limit a route's calls count against (route-guards.ts defines each). */
export type LimitName =
  /** Sign-in and sign-up attempts per client address. */
  | 'sign-in'
  /** `sign-in`, and failed password checks per e-mail (a success gives its attempt back). */
  | 'credentials'
  /** One-time sign-in code sends and checks per client address. */
  | 'codes'
  /** Wrong one-time codes per client address, across every e-mail and phone (a right one is given back). */
  | 'wrong-codes'
  /** Password reset codes asked for one e-mail or phone, known or not. */
  | 'password-reset'
  /** Wrong current passwords per person when changing it (a success is given back). */
  | 'password-change'
  /** Passkey sign-in options and assertions per client address. */
  | 'passkey-sign-in'
  /** Card secret reveals and 3-D Secure codes per person, whichever card. */
  | 'card-secrets'
  /** Identity verification SDK sessions per person. */
  | 'kyc-sessions'
  /** Looking people up by contact, per person: the tenant's customers are not a list to walk. */
  | 'people-lookup'
  /** Looking people up by contact, per client address, whoever is signed in. */
  | 'people-lookup-ip'
  /** Statement checks and link downloads per client address. */
  | 'statement-checks'
  /** Statement checks and links that match nothing, per client address (a match is given back). */
  | 'statement-misses'
  /** One-tap lockdown tokens tried per client address. */
  | 'lockdown-links'
  /** Payment requests opened by their public link, per client address: ids are not to be walked. */
  | 'payment-request-views'

/** Whether this call needs the second look, when the route needs it only for some. */
export type StepUpWhen = (
  request: FastifyRequest,
  app: FastifyInstance,
) => boolean | Promise<boolean>

export type RoutePolicy =
  /** Anyone may call: no token, no key. */
  | { access: 'public'; limits?: LimitName[] }
  | {
      /** A signed-in person; an API key too where `key` says what the call is to its role. */
      access: 'person'
      key?: KeyAction
      /** The second look: always, or when the predicate says so. Keys never give it. */
      stepUp?: true | StepUpWhen
      limits?: LimitName[]
      /** Refused while the person is locked down (409 LOCKDOWN_ACTIVE): the act it is. */
      refusedInLockdown?: LockdownAct
    }

export type PersonPolicy = Extract<RoutePolicy, { access: 'person' }>

/** `METHOD /path` as the OpenAPI document names it, e.g. `GET /api/v2/wallets/{wallet_uuid}`. */
export type RoutePolicies = Record<string, RoutePolicy>

const open = (...limits: LimitName[]): RoutePolicy => ({ access: 'public', limits })

/** A signed-in person only: no API key may do it for them. */
const person = (guards: Omit<PersonPolicy, 'access' | 'key'> = {}): RoutePolicy => ({
  access: 'person',
  ...guards,
})

/** A signed-in person, or an API key whose role may do `key`. */
const personOrKey = (
  key: KeyAction,
  guards: Omit<PersonPolicy, 'access' | 'key'> = {},
): RoutePolicy => ({ access: 'person', key, ...guards })

const secondLook = { stepUp: true } as const

/** The second look, and refused during a lockdown as `act`. */
const lockedAct = (act: LockdownAct) => ({ stepUp: true, refusedInLockdown: act }) as const

/** Signing oneself out never needs it; signing out another session (the owner's) does. */
const endsAnotherSession: StepUpWhen = (request) =>
  (request.params as { id?: string }).id !== request.auth.sessionId

export const ROUTE_POLICY: RoutePolicies = {
  // Signing in and up: anyone, counted per address (password failures per e-mail too).
  'POST /api/v2/auth/sign-up/password/email': open('credentials'),
  'POST /api/v2/auth/sign-in/password/email': open('credentials'),
  'POST /api/v2/auth/sign-in/telegram': open('sign-in'),
  'POST /api/v2/auth/sign-up/telegram': open('sign-in'),
  'POST /api/v2/auth/refresh/refresh-token': open(),
  'POST /api/v2/auth/sign-out': open(),
  'POST /api/v2/auth/sign-in/passkey/options': open('passkey-sign-in'),
  'POST /api/v2/auth/sign-in/passkey': open('passkey-sign-in'),
  'POST /api/v2/auth/sign-in/omni/email/otp': open('codes'),
  'POST /api/v2/auth/sign-in/omni/phone/otp': open('codes'),
  'POST /api/v2/auth/verify/email/otp': open('codes', 'wrong-codes'),
  'POST /api/v2/auth/verify/phone/otp': open('codes', 'wrong-codes'),
  // The same answer whoever asks; the code is checked like a sign-in's.
  'POST /api/v2/auth/password/reset': open('codes', 'password-reset'),
  'POST /api/v2/auth/password/reset/confirm': open('codes', 'wrong-codes'),
  'GET /api/v2/location/countries': open(),
  'GET /api/v2/tenants/config': open(),
  // Anyone may fetch a tenant's signed roots and its key to check a proof (issue 33).
  'GET /api/proofs/{tenant_id}/roots': open(),
  'GET /api/proofs/{tenant_id}/key': open(),
  // Whoever holds a statement checks it, and its owner's link downloads it (issue 31):
  // no tenant, no sign-in; guessing codes or links is counted per address.
  'GET /api/statements/verify/{code}': open('statement-checks', 'statement-misses'),
  'POST /api/statements/verify': open('statement-checks', 'statement-misses'),
  'POST /api/statements/verify/file': open('statement-checks', 'statement-misses'),
  'GET /api/statements/files/{token}': open('statement-checks', 'statement-misses'),
  'GET /api/receipts/{token}': open('statement-checks', 'statement-misses'),

  // The account's ways in, its sessions and its proofs: the person, never a key.
  'GET /api/v2/user/passkeys': person(),
  'POST /api/v2/user/passkeys/options': person(secondLook),
  'POST /api/v2/user/passkeys': person(secondLook),
  'DELETE /api/v2/user/passkeys/{id}': person(secondLook),
  'GET /api/v2/user/step-up': person(),
  'POST /api/v2/user/step-up/otp/send': person(),
  'POST /api/v2/user/step-up/otp': person(),
  'POST /api/v2/user/step-up/passkey/options': person(),
  'POST /api/v2/user/step-up/passkey': person(),
  'POST /api/v2/user/step-up/telegram-biometrics/enrol': person(),
  'POST /api/v2/user/step-up/telegram-biometrics': person(),
  'GET /api/v2/user/password': person(),
  'POST /api/v2/user/password': person({ ...secondLook, limits: ['password-change'] }),
  'GET /api/v2/user/sessions': person(),
  // A person's own leaf and path in the newest proof of balances (issue 33).
  'GET /api/v2/proofs/latest/mine': person(),
  'DELETE /api/v2/user/sessions/{id}': person({ stepUp: endsAnotherSession }),
  'POST /api/v2/user/sessions/sign-out-others': person(secondLook),
  // "That wasn't me" (issue 30): locking down never waits; lifting it is taking the account back.
  'GET /api/v2/user/lockdown': person(),
  'POST /api/v2/user/lockdown': person(),
  'DELETE /api/v2/user/lockdown': person(secondLook),
  // One tap on an alert: its signed one-time token is the caller's only credential.
  'POST /api/v2/lockdown/link': open('lockdown-links'),
  'PATCH /api/v2/user/email': person(lockedAct('contact_changes')),
  'POST /api/v2/user/email': person({ refusedInLockdown: 'contact_changes' }),
  'PATCH /api/v2/user/phone': person(lockedAct('contact_changes')),
  'POST /api/v2/user/phone': person({ refusedInLockdown: 'contact_changes' }),

  'GET /api/v2/user': personOrKey('read'),
  'GET /api/v2/user/user-data': personOrKey('read'),
  'PATCH /api/v2/user/user-data': personOrKey('write'),
  'GET /api/v2/currencies': personOrKey('read'),
  'GET /api/v2/chains': personOrKey('read'),
  'GET /api/v2/rates': personOrKey('read'),

  // Wallets, deposit addresses and history: money comes in, nothing leaves.
  'POST /api/v2/wallets': personOrKey('write'),
  'GET /api/v2/wallets': personOrKey('read'),
  'GET /api/v2/wallets/{wallet_uuid}': personOrKey('read'),
  'POST /api/v2/wallets/{wallet_uuid}/addresses/{chain}': personOrKey('write'),
  'GET /api/v2/wallets/{wallet_uuid}/addresses/{chain}': personOrKey('read'),
  'GET /api/v2/wallets/{wallet_uuid}/transactions': personOrKey('read'),
  'GET /api/v2/wallets/{wallet_uuid}/transactions/{uuid}': personOrKey('read'),
  'GET /api/v1/wallets/transactions/{wallet_uuid}/csv': personOrKey('read'),
  'GET /api/v2/activity': personOrKey('read'),
  'GET /api/v2/activity/{id}': personOrKey('read'),
  'GET /api/v2/activity/{id}/receipt': personOrKey('read'),
  'POST /api/v2/activity/{id}/receipt/link': personOrKey('read'),
  // Statements and insights read the history a key may already read (issue 31); the link
  // is for Telegram's downloadFile, a person's.
  'POST /api/v2/statements': personOrKey('write'),
  'GET /api/v2/statements/{id}': personOrKey('read'),
  'GET /api/v2/statements/{id}/file': personOrKey('read'),
  'POST /api/v2/statements/{id}/link': person(),
  'GET /api/v2/insights/spending': personOrKey('read'),
  'GET /api/v2/insights/balance-history': personOrKey('read'),
  'GET /api/v2/fiat-accounts/{wallet_uuid}': personOrKey('read'),
  'POST /api/v2/fiat-accounts/{wallet_uuid}': personOrKey('write'),
  'GET /api/v2/fiat-accounts/{wallet_uuid}/{fiat_account_id}': personOrKey('read'),
  'GET /api/v2/fiat-accounts/{wallet_uuid}/{fiat_account_id}/transactions': personOrKey('read'),
  'GET /api/v1/fiat_accounts/list/{wallet_id}': personOrKey('read'),
  'GET /api/v1/fiat_accounts/{id}': personOrKey('read'),
  'POST /api/v1/fiat_accounts': personOrKey('write'),
  'GET /api/v1/fiat_accounts/{id}/transactions': personOrKey('read'),
  // Auto top-up (issue 30): on, card payments move money out of a wallet by themselves.
  'GET /api/v1/fiat_accounts/{id}/auto-top-up': person(),
  'PUT /api/v1/fiat_accounts/{id}/auto-top-up': person({ stepUp: keepsAutoTopUpOn }),

  // Counterparties: a payout destination is where money can be sent.
  'GET /api/v2/counterparties/{wallet_id}': personOrKey('read'),
  'POST /api/v2/counterparties/{wallet_id}': personOrKey('write'),
  'GET /api/v2/counterparties/{wallet_id}/{counterparty_account_id}': personOrKey('read'),
  'PATCH /api/v2/counterparties/{wallet_id}/{counterparty_account_id}': personOrKey('write'),
  'GET /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations':
    personOrKey('read'),
  'POST /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations': personOrKey(
    'payout',
    lockedAct('payouts'),
  ),
  'GET /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations/{counterparty_destination_id}':
    personOrKey('read'),
  'PATCH /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations/{counterparty_destination_id}':
    personOrKey('payout', lockedAct('payouts')),
  'DELETE /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations/{counterparty_destination_id}':
    personOrKey('write'),

  // What the person hears: muting or adding a device to listen on is watching.
  'GET /api/v2/notifications': personOrKey('read'),
  'GET /api/v2/notifications/unread': personOrKey('read'),
  'POST /api/v2/notifications/read': personOrKey('write'),
  'GET /api/v2/notifications/preferences': personOrKey('read'),
  'PUT /api/v2/notifications/preferences': person(secondLook),
  'GET /api/v2/push/config': person(),
  'POST /api/v2/push/subscriptions': person(secondLook),
  'POST /api/v2/push/subscriptions/delete': person(),

  // Cards: issuing (to a delivery address), activating, unfreezing, raising limits and
  // closing make money movable; their secrets and 3-D Secure codes are the card itself.
  'GET /api/v1/issuing/config/programs': personOrKey('read'),
  'GET /api/v1/issuing/config/secret-key': personOrKey('read'),
  'POST /api/v1/issuing/cards/create': personOrKey('payout', secondLook),
  'POST /api/v1/issuing/cards/balance': personOrKey('payout', secondLook),
  'GET /api/v1/issuing/cards': personOrKey('read'),
  'GET /api/v1/issuing/cards/{id}': personOrKey('read'),
  'DELETE /api/v1/issuing/cards/{id}': personOrKey('money', secondLook),
  'PATCH /api/v1/issuing/cards/{id}/freeze': personOrKey('write'),
  'PATCH /api/v1/issuing/cards/{id}/unfreeze': personOrKey('money', secondLook),
  'PATCH /api/v1/issuing/cards/{id}/activate': person(secondLook),
  'PATCH /api/v1/issuing/cards/{id}/limits': personOrKey('money', { stepUp: raisesCardLimits }),
  // Controls (issue 30): loosening them makes money movable again; tightening never waits.
  'GET /api/v1/issuing/cards/{id}/controls': personOrKey('read'),
  'PUT /api/v1/issuing/cards/{id}/controls': personOrKey('money', { stepUp: loosensCardControls }),
  'PATCH /api/v1/issuing/cards/{id}/update': personOrKey('write'),
  'POST /api/v1/issuing/cards/{id}/sensitive/secretkey': person({
    ...secondLook,
    limits: ['card-secrets'],
  }),
  'GET /api/v1/vcards/cards/{id}/sensitive/otp': person({
    ...secondLook,
    limits: ['card-secrets'],
  }),
  'GET /api/v1/issuing/cards/{id}/reveals': person(),
  'GET /api/v1/issuing/transactions': personOrKey('read'),
  'GET /api/v1/issuing/transactions/csv': personOrKey('read'),
  // Disputes (issue 30): money only comes in (a credit), so no second look.
  'POST /api/v1/issuing/transactions/{id}/dispute': personOrKey('money'),
  'GET /api/v1/issuing/disputes': personOrKey('read'),
  'GET /api/v1/issuing/disputes/{id}': personOrKey('read'),

  // Orders: money leaving (withdrawals) or onto a card (top-ups) needs the second look.
  'GET /api/v1/orders/calc': personOrKey('read'),
  'GET /api/v1/exchange': personOrKey('read'),
  'POST /api/v1/orders/DEPOSIT_FIAT_SEPA': personOrKey('money'),
  'POST /api/v1/orders/DEPOSIT_FIAT_SWIFT': personOrKey('money'),
  'POST /api/v1/orders/EXCHANGE_CRYPTO_INTERNAL': personOrKey('money'),
  'POST /api/v1/orders/WITHDRAWAL_FIAT_SEPA': personOrKey('payout', lockedAct('withdrawals')),
  'POST /api/v1/orders/WITHDRAWAL_CRYPTO': personOrKey('payout', lockedAct('withdrawals')),
  'POST /api/v1/orders/TRANSFER_CARD_PREPAID': personOrKey('money', secondLook),
  'POST /api/v1/orders/TRANSFER_CARD_SUBACCOUNT': personOrKey('money', secondLook),
  'POST /api/v1/orders/TRANSFER_CARD_WHOLESALE': personOrKey('money', secondLook),
  'GET /api/v1/orders': personOrKey('read'),
  'GET /api/v1/orders/{id}': personOrKey('read'),
  'POST /api/v1/orders/{id}/cancel': personOrKey('money'),

  // Paying people (issue 32). Money out — issue 30's lockdown refuses a transfer, paying
  // a request, and setting up or changing a schedule. The second look: a first payment to someone new above the
  // tenant's threshold; setting up or resuming a schedule that pays out.
  'POST /api/v2/transfers': personOrKey('payout', {
    stepUp: firstPaymentToNewPayee,
    refusedInLockdown: 'payouts',
  }),
  'GET /api/v2/transfers/{id}': personOrKey('read'),
  // Finding people is the person's own act, never a key's: a key must not walk the customers.
  'GET /api/v2/people/lookup': person({ limits: ['people-lookup', 'people-lookup-ip'] }),
  'GET /api/v2/people/recent': personOrKey('read'),
  'POST /api/v2/payment-requests': personOrKey('write'),
  'GET /api/v2/payment-requests': personOrKey('read'),
  // Anyone with the link sees who asks, how much and for what: what a payer needs, no more.
  'GET /api/v2/payment-requests/{id}': open('payment-request-views'),
  'POST /api/v2/payment-requests/{id}/pay': personOrKey('payout', {
    stepUp: firstPaymentToRequester,
    refusedInLockdown: 'payouts',
  }),
  'DELETE /api/v2/payment-requests/{id}': personOrKey('write'),
  'POST /api/v2/schedules': person({ stepUp: movesMoneyOutLater, refusedInLockdown: 'payouts' }),
  'GET /api/v2/schedules': personOrKey('read'),
  'GET /api/v2/schedules/{id}': personOrKey('read'),
  'PATCH /api/v2/schedules/{id}': person({
    stepUp: movesMoneyOutLater,
    refusedInLockdown: 'payouts',
  }),
  'DELETE /api/v2/schedules/{id}': person(),

  // A person verifies themselves.
  'GET /api/v1/kyc/status': person(),
  'POST /api/v1/kyc/sumsub/generate_token': person({ limits: ['kyc-sessions'] }),
  'POST /api/v1/kyc/sandbox/applicant': person(),
  // Sumsub calls it with neither tenant nor token: its digest is checked by the route.
  'POST /api/v1/kyc/sumsub/webhook': open(),

  // The developer area: keys and webhooks are managed by the person, signed in.
  'GET /api/v1/developer/access/list': person(),
  'POST /api/v1/developer/access/create': person(lockedAct('api_keys')),
  'POST /api/v1/developer/access/rotate': person(lockedAct('api_keys')),
  'POST /api/v1/developer/access/update': person(lockedAct('api_keys')),
  'GET /api/v1/developer/vendors/list': personOrKey('read'),
  'GET /api/v1/developer/webhooks': person(),
  'POST /api/v1/developer/webhooks': person(lockedAct('webhooks')),
  'PATCH /api/v1/developer/webhooks/{id}': person(lockedAct('webhooks')),
  'DELETE /api/v1/developer/webhooks/{id}': person(),
  'GET /api/v1/developer/webhooks/{id}/secret': person(secondLook),
  'POST /api/v1/developer/webhooks/{id}/rotate-secret': person(secondLook),
  'GET /api/v1/developer/webhooks/{id}/deliveries': person(),
  'POST /api/v1/developer/webhooks/{id}/deliveries/{delivery_id}/retry': person(),

  // The sandbox plays the outside parties: anyone on this machine (SANDBOX=true only).
  'GET /api/sandbox/outbox': open(),
  'GET /api/sandbox/outbox/telegram': open(),
  'POST /api/sandbox/deposits': open(),
  'POST /api/sandbox/bank-transfers': open(),
  'POST /api/sandbox/sepa-credits': open(),
  'POST /api/sandbox/card-transactions': open(),
  'POST /api/sandbox/card-disputes/{id}/decision': open(),
  // Telegram's callback query to the bot (a tap on an inline button): its token is checked.
  'POST /api/sandbox/telegram/callback': open(),
  // The reviewer decides for the person whose token comes with it.
  'POST /api/sandbox/kyc/decision': person(),
}
