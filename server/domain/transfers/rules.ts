/**
 * Transfers between people, the pure part: how a contact is named and
 * normalised, how a person is shown to someone else, which way a payment
 * goes (straight to a customer, or held for a contact to claim), when the
 * second look is due, and the ledger legs of each step. No IO here.
 */
import type { ContactChannel, TransferTarget } from '../../../contract/transfers.ts'
import { transfer as legs, type Posting } from '../ledger/rules.ts'
import { maskEmail, maskPhone } from '../masks.ts'
import { normalisePhone } from '../otp/phone.ts'
import { normaliseEmail } from '../otp/rules.ts'

/** A recipient as the service looks them up: a contact, normalised, or a person's id. */
export type Addressee =
  | { kind: 'contact'; channel: ContactChannel; value: string }
  | { kind: 'user'; userId: string }

/** Why a target cannot name anyone. */
export type TargetFault = { field: string; message: string }

/** "Anna@Example.com " → "anna@example.com"; "+49 151 …" → digits; "@Anna_B" → "anna_b". */
export function addresseeOf(to: TransferTarget): Addressee | TargetFault {
  if ('user_id' in to) return { kind: 'user', userId: to.user_id.toLowerCase() }
  if ('email' in to) return { kind: 'contact', channel: 'email', value: normaliseEmail(to.email) }
  if ('phone' in to) {
    const digits = normalisePhone(to.phone)
    return digits
      ? { kind: 'contact', channel: 'phone', value: digits }
      : { field: '/body/to/phone', message: 'is not a valid phone number' }
  }
  return {
    kind: 'contact',
    channel: 'telegram_username',
    value: normaliseUsername(to.telegram_username),
  }
}

/** Telegram usernames are case-insensitive; "@" is how people write them, not part of them. */
export const normaliseUsername = (username: string) =>
  username.trim().replace(/^@/, '').toLowerCase()

/** The contact as the sender sees it on their own item: their words, written back readably. */
export function contactLabel(channel: ContactChannel, value: string): string {
  switch (channel) {
    case 'email':
      return value
    case 'phone':
      return `+${value}`
    case 'telegram_username':
      return `@${value}`
  }
}

export interface PersonFacts {
  first_name: string | null
  last_name: string | null
  username: string | null
  email: string | null
  phone: string | null
}

/**
 * How one person is shown to another: "Anna S." (the first name and the last
 * name's initial: enough to recognise a friend, not a full name to a
 * stranger), else their Telegram "@username", else their contact masked.
 */
export function displayName(person: PersonFacts): string {
  const first = person.first_name?.trim()
  const last = person.last_name?.trim()
  if (first) return last ? `${first} ${[...last][0]!.toUpperCase()}.` : first
  if (last) return last
  if (person.username) return `@${person.username}`
  if (person.email) return maskEmail(person.email)
  if (person.phone) return maskPhone(person.phone)
  return '—'
}

/** The avatar's letter: the name's first letter (a username's after the "@"), upper-cased. */
export function initialOf(name: string): string {
  const letter = [...name.replace(/^[@+]/, '')].find((char) => /[\p{L}\p{N}]/u.test(char))
  return (letter ?? '?').toLocaleUpperCase()
}

/**
 * Where the money goes. A customer who lets people find them is paid at
 * once; a contact nobody has — or whose owner does not let people find them
 * — gets a transfer to claim, so the answer never tells the sender which of
 * the two it was (docs/decisions.md). A person named by id is known to the
 * sender already (recent people, or found by lookup).
 */
export type Route = { kind: 'direct'; userId: string } | { kind: 'claimable' }

export function routeOf(
  addressee: Addressee,
  found: { userId: string; discoverable: boolean; knownToSender: boolean } | undefined,
): Route | 'NOT_FOUND' {
  if (addressee.kind === 'user') {
    return found && (found.discoverable || found.knownToSender)
      ? { kind: 'direct', userId: found.userId }
      : 'NOT_FOUND'
  }
  return found?.discoverable ? { kind: 'direct', userId: found.userId } : { kind: 'claimable' }
}

/**
 * Whether a payment needs the second look: the first one to this person (or
 * contact) and, valued in the tenant's display currency, above its threshold.
 * `value` is undefined when no price was to be had: then it counts as above.
 */
export function needsSecondLook(input: {
  firstToPayee: boolean
  value: bigint | undefined
  thresholdMinor: bigint
}): boolean {
  if (!input.firstToPayee) return false
  return input.value === undefined || input.value > input.thresholdMinor
}

/** The ledger account ids a transfer's steps move between. */
export interface TransferAccounts {
  /** The sender's available balance. */
  senderWallet: string
  /** The sender wallet's `held` account: where a claimable transfer waits. */
  senderHeld: string
}

/** The one entry of each step (`transfer:<id>:<step>`), each ledger-balanced. */
export function transferLegs(
  step: 'direct' | 'hold' | 'claim' | 'return',
  accounts: TransferAccounts & { recipientWallet?: string },
  currency: string,
  amount: bigint,
): Posting[] {
  switch (step) {
    case 'direct':
      return legs(accounts.senderWallet, need(accounts.recipientWallet), currency, amount)
    case 'hold':
      return legs(accounts.senderWallet, accounts.senderHeld, currency, amount)
    case 'claim':
      return legs(accounts.senderHeld, need(accounts.recipientWallet), currency, amount)
    case 'return':
      return legs(accounts.senderHeld, accounts.senderWallet, currency, amount)
  }
}

const need = (account: string | undefined) => {
  if (!account) throw new Error('the recipient wallet is needed for this step')
  return account
}

/** When a claimable transfer sent at `at` goes back. */
export const claimDeadline = (at: Date, days: number) =>
  new Date(at.getTime() + days * 24 * 60 * 60 * 1000)
