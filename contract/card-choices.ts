/*
 * What a person chooses about their cards (issue 30): the ways a card can be
 * used, the windows a category limit counts over, and why a payment is
 * disputed. No imports: the app takes these values for its lists, and no byte
 * of TypeBox may come with them (contract/README.md).
 */

/**
 * How the card was presented: `online` (card not present: a website, an app),
 * `contactless` (a tap), `chip` (inserted, with the PIN), `magstripe` (swiped:
 * the easiest to copy), `atm` (cash from a machine).
 */
export const CARD_CHANNELS = ['online', 'contactless', 'chip', 'magstripe', 'atm'] as const
export type CardChannel = (typeof CARD_CHANNELS)[number]

/** A new card takes every channel but the magnetic stripe, which skimmers copy. */
export const DEFAULT_CHANNELS: Readonly<Record<CardChannel, boolean>> = {
  online: true,
  contactless: true,
  chip: true,
  magstripe: false,
  atm: true,
}

/** What a category limit counts: one payment, the UTC day's, or the UTC month's. */
export const CONTROL_INTERVALS = ['transaction', 'day', 'month'] as const
export type ControlInterval = (typeof CONTROL_INTERVALS)[number]

/**
 * Why a settled card payment is disputed. `fraud`: the person did not make it
 * (credited at once, provisionally); the rest are disputes with the merchant.
 */
export const DISPUTE_REASONS = [
  'fraud',
  'not_received',
  'duplicate',
  'wrong_amount',
  'cancelled_subscription',
  'other',
] as const
export type DisputeReason = (typeof DISPUTE_REASONS)[number]

/** SUBMITTED → UNDER_REVIEW → WON | LOST (the card network decides). */
export const DISPUTE_STATUSES = ['SUBMITTED', 'UNDER_REVIEW', 'WON', 'LOST'] as const
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number]

/** A dispute the network has decided: nothing changes it any more. */
export const disputeDecided = (status: DisputeStatus) => status === 'WON' || status === 'LOST'
