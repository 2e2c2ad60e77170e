/** A card request's checks before its transaction: the delivery, the account, the form factor. */
import type { CardFormFactor, DeliveryAddress } from '../../../contract/cards.ts'
import type { FiatAccountStatus } from '../../../contract/fiat-accounts.ts'
import { normaliseName } from '../../../contract/names.ts'
import { isKnownCountry } from '../location/countries.ts'
import { CardError } from './errors.ts'
import type { ProgramForCard } from './repository.ts'

/**
 * A PHYSICAL card's delivery address, trimmed (an empty line2 dropped); null
 * for a VIRTUAL card, which takes none.
 * @throws CardError DELIVERY_ADDRESS_REQUIRED, DELIVERY_ADDRESS_NOT_ALLOWED, INVALID_DELIVERY_ADDRESS
 */
export function deliveryOf(
  formFactor: CardFormFactor,
  address: DeliveryAddress | undefined,
): DeliveryAddress | null {
  const field = '/body/delivery_address'
  if (formFactor === 'VIRTUAL') {
    if (!address) return null
    throw new CardError({
      kind: 'DELIVERY_ADDRESS_NOT_ALLOWED',
      fault: { field, message: 'A virtual card is not delivered: send no delivery address.' },
    })
  }
  if (!address) {
    throw new CardError({
      kind: 'DELIVERY_ADDRESS_REQUIRED',
      fault: { field, message: 'A physical card needs a delivery address.' },
    })
  }
  if (!isKnownCountry(address.country)) {
    throw new CardError({
      kind: 'INVALID_DELIVERY_ADDRESS',
      fault: { field: `${field}/country`, message: 'Not a known country.' },
    })
  }
  const line2 = address.line2?.trim()
  return {
    recipient_name: normaliseName(address.recipient_name),
    line1: address.line1.trim(),
    ...(line2 ? { line2 } : {}),
    city: address.city.trim(),
    postal_code: address.postal_code.trim(),
    country: address.country,
  }
}

/** 422 FIAT_ACCOUNT_UNAVAILABLE: not ACTIVE, or a stand-alone card's own account. */
export function accountUnavailable(status: FiatAccountStatus): CardError {
  return new CardError({
    kind: 'FIAT_ACCOUNT_UNAVAILABLE',
    accountStatus: status,
    fault: {
      field: '/body/fiat_account_id',
      message:
        status !== 'ACTIVE'
          ? `This fiat account is ${status}: it takes no new card.`
          : 'This fiat account belongs to a stand-alone card: it takes no other card.',
    },
  })
}

export function checkFormFactor(program: ProgramForCard, formFactor: CardFormFactor) {
  if (!program.form_factors.includes(formFactor)) {
    throw new CardError({
      kind: 'FORM_FACTOR_UNAVAILABLE',
      fault: {
        field: '/body/form_factor',
        message: `This program issues ${program.form_factors.join(' and ')} cards only.`,
      },
    })
  }
}
