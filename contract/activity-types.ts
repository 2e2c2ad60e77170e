/*
 * The activity types alone, with no imports: the wallet records name theirs
 * (contract/wallets.ts) and the activity schemas import the records, so the
 * list sits apart from both (an import cycle would leave one undefined).
 */

/**
 * What happened, in the person's terms — one feed item per business event,
 * however many ledger records it wrote:
 * - `exchange`: one currency into another (an EXCHANGE_CRYPTO_INTERNAL order);
 * - `send`: money to someone else — a SEPA payout, a chain withdrawal, or a
 *   transfer to another person's wallet on the platform;
 * - `receive`: another person's transfer into one of the person's wallets;
 * - `transfer`: between two of the person's own wallets;
 * - `deposit`: money in from outside — crypto on chain, or a bank transfer;
 * - `card_purchase`: a card payment, from authorisation to settlement, with
 *   its reversal and refunds folded in;
 * - `card_top_up`: money from a wallet onto a card's fiat account;
 * - `card_balance_return`: what was left on a closed card, back in the wallet;
 * - `fee`: a card program's fee (issue, monthly).
 */
export const ACTIVITY_TYPES = [
  'exchange',
  'send',
  'receive',
  'transfer',
  'deposit',
  'card_purchase',
  'card_top_up',
  'card_balance_return',
  'fee',
] as const
export type ActivityType = (typeof ACTIVITY_TYPES)[number]
