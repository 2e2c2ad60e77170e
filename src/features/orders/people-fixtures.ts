import type { PaymentRequest } from '../../../contract/payment-requests.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { WALLET_UUID } from '../../../tests/support/builders.ts'
import { EUR_UUID } from './test-fixtures.ts'

/** The transfers and requests the paying-people screens' tests share (issue 32). */

export const ANNA = '0190b0a4-0000-7000-8000-00000000ab01'
export const TRANSFER = '0190b0a4-0000-7000-8000-00000000ab02'
export const ACTIVITY = '0190b0a4-0000-7000-8000-00000000ab03'
export const REQUEST = '0190b0a4-0000-7000-8000-00000000ab04'

const EUR20 = { currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2, amount: '20' }

export const aTransfer = (overrides: Partial<Transfer> = {}): Transfer => ({
  id: TRANSFER,
  status: 'COMPLETE',
  direction: 'out',
  wallet_uuid: WALLET_UUID,
  amount: EUR20,
  note: 'Dinner',
  counterparty: { name: 'Anna S.', initial: 'A', user_id: ANNA },
  contact: null,
  payment_request_id: null,
  expires_at: null,
  activity_id: ACTIVITY,
  created_at: '2026-11-29T10:00:00Z',
  settled_at: '2026-11-29T10:00:00Z',
  ...overrides,
})

export const aRequest = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  id: REQUEST,
  status: 'OPEN',
  requester: { display_name: 'Mia K.', initial: 'M' },
  amount: EUR20,
  note: 'Concert tickets',
  expires_at: null,
  created_at: '2026-11-29T10:00:00Z',
  url: `https://app.example/pay/${REQUEST}`,
  telegram_url: `https://t.me/finbot/app?startapp=pr_${REQUEST}`,
  qr_svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0h1v1H0z"/></svg>',
  wallet_uuid: WALLET_UUID,
  paid_at: null,
  ...overrides,
})
