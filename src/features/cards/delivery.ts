import { cardFinished, DELIVERY_STATUSES } from '../../../contract/card-rules.ts'
import type { Card, DeliveryAddress, DeliveryStatus } from '../../../contract/cards.ts'
import { ApiError } from '../../net/api.ts'

/*
 * Physical cards: where to send them, how far the post has got, and the
 * activation with the security code printed on the card.
 */

export type { DeliveryAddress, DeliveryStatus }
export { DELIVERY_STATUSES }
export type AddressField = keyof DeliveryAddress
export const ADDRESS_FIELDS: AddressField[] = [
  'recipient_name',
  'line1',
  'line2',
  'city',
  'postal_code',
  'country',
]

/** The card's delivery stage; a virtual card has none. */
export const cardDelivery = (card: Pick<Card, 'delivery'>): DeliveryStatus | undefined =>
  card.delivery?.status

/** A physical card still on its way: the courier moves it along while the page is open. */
export const onItsWay = (card: Pick<Card, 'delivery' | 'status'>): boolean => {
  const status = cardDelivery(card)
  return status !== undefined && status !== 'DELIVERED' && !cardFinished(card.status)
}

export type AddressFault = 'required' | 'tooLong' | 'postalCodeFormat'

/** The contract's DeliveryAddress lengths. */
export const MAX_LENGTH: Record<AddressField, number> = {
  recipient_name: 100,
  line1: 100,
  line2: 100,
  city: 60,
  postal_code: 20,
  country: 2,
}
const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]*$/

/** The faults of an address form, by field; the form's values are trimmed first. */
export function addressFaults(
  address: DeliveryAddress,
): Partial<Record<AddressField, AddressFault>> {
  const faults: Partial<Record<AddressField, AddressFault>> = {}
  for (const field of ADDRESS_FIELDS) {
    const value = (address[field] ?? '').trim()
    if (!value) {
      if (field !== 'line2') faults[field] = 'required'
    } else if (value.length > MAX_LENGTH[field]) faults[field] = 'tooLong'
    else if (field === 'postal_code' && !POSTAL_CODE.test(value)) faults[field] = 'postalCodeFormat'
  }
  return faults
}

/** The address as sent: trimmed, without an empty second line. */
export function cleanAddress(address: DeliveryAddress): DeliveryAddress {
  const line2 = address.line2?.trim()
  return {
    recipient_name: address.recipient_name.trim(),
    line1: address.line1.trim(),
    ...(line2 && { line2 }),
    city: address.city.trim(),
    postal_code: address.postal_code.trim(),
    country: address.country,
  }
}

/**
 * The address fields a 422 names (`/body/delivery_address/city`), or every
 * required one for DELIVERY_ADDRESS_REQUIRED.
 */
export function serverAddressFaults(error: unknown): AddressField[] {
  if (!(error instanceof ApiError) || error.status !== 422) return []
  if (error.code === 'DELIVERY_ADDRESS_REQUIRED') {
    return ADDRESS_FIELDS.filter((field) => field !== 'line2')
  }
  const prefix = '/body/delivery_address/'
  return (error.problem?.errors ?? [])
    .map((item) => item.field)
    .filter((field) => field.startsWith(prefix))
    .map((field) => field.slice(prefix.length).split('/')[0] as AddressField)
    .filter((field) => ADDRESS_FIELDS.includes(field))
}
