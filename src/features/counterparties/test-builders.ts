import type { Counterparty, Destination } from '../../../contract/counterparties.ts'

/*
 * Builders for this feature's tests: a plausible value, with overrides for
 * what a test is about. Imported by tests only, so never in a bundle.
 */

export const CP_WALLET = '0190b0a4-0000-7000-8000-0000000000a1'
export const CP_ID = '0190b0a4-0000-7000-8000-0000000000f1'
export const DEST_ID = '0190b0a4-0000-7000-8000-0000000000f2'

export const aCounterparty = (overrides: Partial<Counterparty> = {}): Counterparty => ({
  counterparty_account_id: CP_ID,
  wallet_id: CP_WALLET,
  type: 'INDIVIDUAL',
  name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  legal_name: null,
  email: 'ada@example.com',
  phone: null,
  country: 'GB',
  address: null,
  destinations_count: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
})

export const aBusiness = (overrides: Partial<Counterparty> = {}): Counterparty =>
  aCounterparty({
    counterparty_account_id: '0190b0a4-0000-7000-8000-0000000000f9',
    type: 'BUSINESS',
    name: 'Acme Trading GmbH',
    first_name: null,
    last_name: null,
    legal_name: 'Acme Trading GmbH',
    country: 'DE',
    destinations_count: 0,
    ...overrides,
  })

export const aDestination = (overrides: Partial<Destination> = {}): Destination => ({
  counterparty_destination_id: DEST_ID,
  counterparty_account_id: CP_ID,
  type: 'SEPA',
  label: null,
  iban: 'DE89370400440532013000',
  bic: null,
  account_number: null,
  routing_number: null,
  account_type: null,
  bank_name: null,
  bank_country: null,
  chain: null,
  address: null,
  wallet_uuid: null,
  display: 'DE89 … 3000',
  created_at: '2026-01-02T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
  ...overrides,
})

/** One page of the list, as the API answers it. */
export const aPage = <T>(data: T[], total = data.length, offset = 0, limit = 20) => ({
  data,
  total,
  limit,
  offset,
  is_last_page: offset + data.length >= total,
})
