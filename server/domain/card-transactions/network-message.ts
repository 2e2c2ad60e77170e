import type { ProcessorMessageBody } from '../../../contract/card-transactions.ts'
import { AmountError, toMinor } from '../../../contract/money.ts'
import type { CardCrypto } from '../cards/card-crypto.ts'
import { canonicalHash } from '../idempotency.ts'
import { CardTransactionError } from './errors.ts'

/*
 * A card network message as its handlers read it (card-network.ts, authorize.ts,
 * clear-reverse-refund.ts): its amount in minor units, its id and hash when it
 * carried an id, and the 422 of a field sent wrong.
 */

/** A message with its network id and hash, when it carried an id. */
export type Stamped = ProcessorMessageBody & { stamp: { id: string; hash: string } | undefined }

/** A field of the message the sandbox cannot take as sent (422 naming it). */
export const bodyFault = (
  kind: Extract<CardTransactionError['failure'], { field: string }>['kind'],
  field: string,
  message: string,
) => new CardTransactionError({ kind, field: `/body/${field}`, message })

/**
 * What makes two messages the same: every field but the id, the amount in
 * minor units (so 10.5 and 10.50 are one amount), codes and ids normalised;
 * keys in any order (a network retry may serialise its merchant differently).
 * A 3-D Secure code counts only when sent, so hashes of messages without one
 * stay what they were before the field existed; it enters keyed, as the
 * card's OTPs are stored, since a bare hash of six digits is read back by
 * trying all million.
 */
export function messageHash(
  message: ProcessorMessageBody,
  decimals: number,
  crypto: CardCrypto,
): string {
  let amount: string
  try {
    amount = toMinor(message.amount, decimals).toString()
  } catch {
    amount = message.amount
  }
  return canonicalHash({
    card_id: message.card_id.toLowerCase(),
    type: message.type,
    amount,
    currency: message.currency.trim().toUpperCase(),
    merchant: message.merchant ?? null,
    authorization_id: message.authorization_id?.toLowerCase() ?? null,
    ...(message.three_ds_code !== undefined && {
      three_ds_code: crypto.otpHash(message.card_id.toLowerCase(), message.three_ds_code),
    }),
    ...(message.channel !== undefined && { channel: message.channel }),
  })
}

/**
 * The message's amount in the card's minor units.
 * @throws CardTransactionError INVALID_AMOUNT (more places than the currency has, or not above 0)
 */
export function parseAmount(amount: string, decimals: number): bigint {
  let minor: bigint
  try {
    minor = toMinor(amount, decimals)
  } catch (error) {
    if (error instanceof AmountError) {
      throw bodyFault('INVALID_AMOUNT', 'amount', `At most ${decimals} decimal places.`)
    }
    throw error
  }
  if (minor <= 0n) throw bodyFault('INVALID_AMOUNT', 'amount', 'Must be more than 0.')
  return minor
}
