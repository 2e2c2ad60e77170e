import type { Currency } from '../../contract/catalog.ts'
import type { Order, Quote } from '../../contract/orders.ts'
import type { User, UserData } from '../../contract/user.ts'
import type {
  Balance,
  TransactionList,
  Wallet,
  WalletAddress,
  WalletTransaction,
} from '../../contract/wallets.ts'

/** Test builders: a plausible value, with overrides for what a test is about. */

export const aUser = (overrides: Partial<User> = {}): User => ({
  id: '0190b0a4-0000-7000-8000-000000000001',
  email: 'ada@example.com',
  phone: '14155552671',
  telegram_id: null,
  kyc_status: 'UNVERIFIED',
  created_at: '2026-01-01T00:00:00Z',
  ...overrides,
})

export const someUserData = (overrides: Partial<UserData> = {}): UserData => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1990-12-10',
  language: 'en',
  address: { country: 'GB', city: 'London', line1: '12 Square', postal_code: 'SW1Y 4JH' },
  username: null,
  photo_url: null,
  is_premium: false,
  people_discoverable: false,
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
})

export const WALLET_UUID = '0190b0a4-0000-7000-8000-0000000000a1'

export const aBalance = (overrides: Partial<Balance> = {}): Balance => ({
  currency_uuid: '0190b0a4-0000-7000-8000-0000000000c1',
  currency: 'ETH',
  chain: 'ethereum',
  decimals: 18,
  available: '0',
  pending: '0',
  ...overrides,
})

export const aWallet = (overrides: Partial<Wallet> = {}): Wallet => ({
  uuid: WALLET_UUID,
  type: 'personal',
  created_at: '2026-01-01T00:00:00Z',
  balances: [aBalance()],
  ...overrides,
})

export const anAddress = (overrides: Partial<WalletAddress> = {}): WalletAddress => ({
  uuid: '0190b0a4-0000-7000-8000-0000000000d1',
  wallet_uuid: WALLET_UUID,
  chain: 'ethereum',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  label: null,
  created_at: '2026-01-02T00:00:00Z',
  ...overrides,
})

export const aTransaction = (overrides: Partial<WalletTransaction> = {}): WalletTransaction => ({
  uuid: '0190b0a4-0000-7000-8000-0000000000e1',
  wallet_uuid: WALLET_UUID,
  type: 'deposit',
  method: 'crypto',
  record_type: 'DEPOSIT_CRYPTO_EXTERNAL',
  status: 'complete',
  currency_uuid: '0190b0a4-0000-7000-8000-0000000000c1',
  currency: 'ETH',
  chain: 'ethereum',
  amount: '1.5',
  address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  tx_hash: '0x3a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdef',
  confirmations: 12,
  created_at: '2026-01-03T10:00:00Z',
  updated_at: '2026-01-03T10:05:00Z',
  activity_id: null,
  activity_type: null,
  counterparty_name: null,
  merchant: null,
  from_currency: null,
  to_currency: null,
  card_last4: null,
  ...overrides,
})

/** One page of history: `count` transactions from `offset`, each with its own uuid. */
export const aTransactionPage = (
  offset: number,
  count: number,
  total: number,
  limit = 50,
): TransactionList => ({
  data: Array.from({ length: count }, (_, i) =>
    aTransaction({
      uuid: `0190b0a4-0000-7000-8000-${String(offset + i).padStart(12, '0')}`,
      amount: `${offset + i + 1}.25`,
    }),
  ),
  total,
  limit,
  offset,
  is_last_page: offset + count >= total,
})

export const USDT_UUID = '0190b0a4-0000-7000-8000-0000000000c2'
export const BTC_UUID = '0190b0a4-0000-7000-8000-0000000000c3'

export const aCurrency = (overrides: Partial<Currency> = {}): Currency => ({
  uuid: USDT_UUID,
  code: 'USDT',
  name: 'Tether USD',
  type: 'token',
  decimals: 6,
  chain: 'tron',
  ...overrides,
})

/** One page holding everything: catalogues and pickers. */
export const aPage = <T>(data: T[]) => ({
  data,
  total: data.length,
  limit: 100,
  offset: 0,
  is_last_page: true,
})

/** A firm quote: 100 USDT with a 1 USDT fee and a 0.5 % fee, into BTC, good for 30 s from now. */
export const aQuote = (overrides: Partial<Quote> = {}): Quote => {
  const created = new Date()
  return {
    quote_id: '0190b0a4-0000-7000-8000-0000000000f1',
    order_type: 'EXCHANGE_CRYPTO_INTERNAL',
    wallet_uuid: WALLET_UUID,
    from: { currency_uuid: USDT_UUID, currency: 'USDT', chain: 'tron', decimals: 6, amount: '100' },
    to: {
      currency_uuid: BTC_UUID,
      currency: 'BTC',
      chain: 'bitcoin',
      decimals: 8,
      amount: '0.00158',
    },
    rate: '0.0000158',
    fees: [
      { kind: 'FIXED', currency_uuid: USDT_UUID, currency: 'USDT', amount: '1', percent: null },
      {
        kind: 'PERCENT',
        currency_uuid: USDT_UUID,
        currency: 'USDT',
        amount: '0.5',
        percent: '0.5',
      },
    ],
    total: '101.5',
    target: {
      kind: 'wallet',
      wallet_uuid: WALLET_UUID,
      counterparty_account_id: null,
      counterparty_destination_id: null,
      destination_type: null,
      fiat_account_id: null,
      chain: null,
      address: null,
      display: 'Personal wallet',
    },
    expires_at: new Date(created.getTime() + 30_000).toISOString(),
    created_at: created.toISOString(),
    ...overrides,
  }
}

/** The order a quote places, NEW, with its first timeline event. */
export const anOrder = (overrides: Partial<Order> = {}): Order => {
  const quote = aQuote()
  return {
    id: '0190b0a4-0000-7000-8000-0000000000b1',
    order_type: quote.order_type,
    status: 'NEW',
    wallet_uuid: WALLET_UUID,
    quote_id: quote.quote_id,
    request_id: 'request-1',
    from: quote.from,
    to: quote.to,
    rate: quote.rate,
    fees: quote.fees,
    total: quote.total,
    target: quote.target,
    note: null,
    deposit_instructions: null,
    tx_hash: null,
    failure_code: null,
    // The server's English note is there to prove the app never shows it (it words `code`).
    timeline: [
      {
        status: 'NEW',
        code: 'FUNDS_HELD',
        at: '2026-01-05T10:00:00Z',
        note: 'Order placed; the funds are held',
      },
    ],
    created_at: '2026-01-05T10:00:00Z',
    updated_at: '2026-01-05T10:00:00Z',
    ...overrides,
  }
}
