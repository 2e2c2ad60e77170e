import type { CARD_STATUSES } from './fiat-accounts.ts'

/*
 * Card rules the server and the app both apply. Imports nothing at run time
 * (the schemas in ./cards.ts build TypeBox types as they load, which would
 * put TypeBox in the app's home screen, whose next steps read the cards).
 */

type CardStatus = (typeof CARD_STATUSES)[number]

/**
 * A card that is over: CLOSED or CANCELED. It is never shipped, charged,
 * revealed or changed again (the server's jobs and the app read this one rule).
 */
export const cardFinished = (status: CardStatus): boolean =>
  status === 'CLOSED' || status === 'CANCELED'

/**
 * Whether the card's number, CVV or a one-time code may be shown: not before
 * a physical card is activated (INACTIVE), nor once it is finished.
 */
export const cardRevealable = (status: CardStatus): boolean =>
  status !== 'INACTIVE' && !cardFinished(status)

/** Where a PHYSICAL card's delivery stands; the sandbox courier moves it along. */
export const DELIVERY_STATUSES = ['ORDERED', 'SHIPPED', 'DELIVERED'] as const
