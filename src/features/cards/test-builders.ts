import type { CardTransaction } from '../../../contract/card-transactions.ts'
import type { CardDetail } from '../../../contract/cards.ts'
import type { CardProgram } from '../../../contract/fiat-accounts.ts'

export { aPage } from '../../../tests/support/builders.ts'

export const CARD_ID = '0190b0a4-0000-7000-8000-0000000000d1'
export const CARD_WALLET = '0190b0a4-0000-7000-8000-0000000000a1'
export const ACCOUNT_ID = '0190b0a4-0000-7000-8000-0000000000d2'
export const PROGRAM_ID = '0190b0a4-0000-7000-8000-0000000000d3'
export const EUR_UUID = '0190b0a4-0000-7000-8000-0000000000c1'

export const aCardDetail = (overrides: Partial<CardDetail> = {}): CardDetail => ({
  id: CARD_ID,
  wallet_uuid: CARD_WALLET,
  program_id: PROGRAM_ID,
  nick_name: 'Travel',
  last4: '4242',
  expiry_month: 11,
  expiry_year: 2029,
  status: 'ACTIVE',
  form_factor: 'VIRTUAL',
  card_type: 'DEBIT',
  currency_uuid: EUR_UUID,
  currency: 'EUR',
  stand_alone: true,
  limits: { per_transaction: '1000.00', daily: '2500.00', monthly: '10000.00' },
  delivery: null,
  frozen_by_lockdown: false,
  created_at: '2026-01-02T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
  fiat_account: {
    id: ACCOUNT_ID,
    wallet_uuid: CARD_WALLET,
    program_id: PROGRAM_ID,
    program_name: 'Everyday EUR',
    account_last4: '4821',
    bank_details: null,
    sub_account_type: 'prepaid',
    type: 'prepaid',
    stand_alone: true,
    status: 'ACTIVE',
    currency_uuid: EUR_UUID,
    currency: 'EUR',
    balance: '125.50',
    created_at: '2026-01-02T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
  },
  ...overrides,
})

export const aCardTransaction = (overrides: Partial<CardTransaction> = {}): CardTransaction => ({
  id: '0190b0a4-0000-7000-8000-0000000000e1',
  card_id: CARD_ID,
  card_last4: '4242',
  fiat_account_id: ACCOUNT_ID,
  wallet_uuid: CARD_WALLET,
  type: 'AUTHORIZATION',
  status: 'APPROVED',
  amount: '25.00',
  currency: 'EUR',
  currency_uuid: EUR_UUID,
  merchant: { name: 'Corner Shop', mcc: '5411', city: 'Berlin', country: 'DE' },
  decline_reason: null,
  exceeded_limit: null,
  channel: 'chip',
  authorization_id: null,
  created_at: '2026-03-01T10:00:00Z',
  updated_at: '2026-03-01T10:00:00Z',
  activity_id: null,
  ...overrides,
})

/** An ACTIVE prepaid EUR program offering both form factors, with fees. */
export const aProgram = (overrides: Partial<CardProgram> = {}): CardProgram => ({
  id: PROGRAM_ID,
  name: 'Everyday EUR',
  status: 'ACTIVE',
  currency_uuid: EUR_UUID,
  currency: 'EUR',
  form_factors: ['VIRTUAL', 'PHYSICAL'],
  card_type: 'DEBIT',
  sub_account_type: 'prepaid',
  fees: { issue: '5.00', monthly: '1.00', top_up_percent: '1' },
  ...overrides,
})
