import { type Static, Type } from '@sinclair/typebox'
import { ACTIVITY_TYPES } from './activity-types.ts'
import { CHAIN_IDS } from './catalog.ts'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { HistoryPage, HistoryQuery, Page } from './pagination.ts'

/** docs/product.md §3: wallet types. */
export const WALLET_TYPES = [
  'business',
  'personal',
  'trading',
  'escrow',
  'merchant',
  'exchange',
  'staking',
  'vault',
] as const
export type WalletType = (typeof WALLET_TYPES)[number]

/**
 * docs/product.md §3: the label entries. Note the trading wallet — the P2P wallet —
 * whose label entry uses the value `p2p`, not `trading`.
 */
export const WALLET_TYPE_LABELS = [
  { value: 'business', label: 'Business' },
  { value: 'personal', label: 'Personal' },
  { value: 'p2p', label: 'P2P' },
  { value: 'escrow', label: 'Escrow' },
  { value: 'merchant', label: 'Merchant' },
  { value: 'exchange', label: 'Exchange' },
  { value: 'staking', label: 'Staking' },
  { value: 'vault', label: 'Vault' },
] as const

export const Balance = Type.Object({
  currency_uuid: Type.String({ format: 'uuid' }),
  currency: Type.String({ description: 'Currency code' }),
  chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  decimals: Type.Integer(),
  /** Spendable now. */
  available: Amount,
  /** On its way in (unconfirmed deposits) or held for an accepted order. */
  pending: Amount,
})
export type Balance = Static<typeof Balance>

export const Wallet = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  type: oneOf(WALLET_TYPES),
  created_at: Type.String({ format: 'date-time' }),
  balances: Type.Array(Balance),
})
export type Wallet = Static<typeof Wallet>

/** `POST /wallets` */
export const CreateWalletBody = Type.Object(
  { type: oneOf(WALLET_TYPES) },
  { additionalProperties: false },
)
export type CreateWalletBody = Static<typeof CreateWalletBody>

export const WalletList = Page(Wallet)
export type WalletList = Static<typeof WalletList>

export const WalletAddress = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  wallet_uuid: Type.String({ format: 'uuid' }),
  chain: oneOf(CHAIN_IDS),
  address: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
})
export type WalletAddress = Static<typeof WalletAddress>

/** `POST /wallets/{wallet_uuid}/addresses/{chain}` */
export const CreateAddressBody = Type.Object(
  { label: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: false },
)

/** `GET /wallets/{wallet_uuid}/addresses/{chain_id}`: every address of the chain on one page. */
export const WalletAddressList = Page(WalletAddress)
export type WalletAddressList = Static<typeof WalletAddressList>

/** docs/product.md §3–§4: the wallet transaction enumerations. */
export const TRANSACTION_TYPES = ['deposit', 'withdrawal'] as const
export const TRANSACTION_METHODS = ['p2p', 'crypto', 'bank_transfer', 'exchange', 'sbp'] as const
export const RECORD_TYPES = [
  'CARD_PROVIDER_DEPOSIT',
  'CARD_PROVIDER_REFUND',
  'DEPOSIT',
  'DEPOSIT_CRYPTO_EXTERNAL',
  'DEPOSIT_CRYPTO_INTERNAL',
  'EXCHANGE_CRYPTO_INTERNAL',
  'EXT_EXCHANGE',
  'FEE',
  'NETWORK_FEE',
  'REFUND',
  'WITHDRAWAL',
  'WITHDRAWAL_CRYPTO_EXTERNAL',
  'WITHDRAWAL_CRYPTO_INTERNAL',
  'WHOLESALE_CARD_DEPOSIT',
] as const
export const TRANSACTION_STATUSES = [
  'complete',
  'pending',
  'canceled',
  'failed',
  'processing',
  'new',
] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]
export type RecordType = (typeof RECORD_TYPES)[number]

export const WalletTransaction = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  wallet_uuid: Type.String({ format: 'uuid' }),
  type: oneOf(TRANSACTION_TYPES),
  method: oneOf(TRANSACTION_METHODS),
  record_type: oneOf(RECORD_TYPES),
  status: oneOf(TRANSACTION_STATUSES),
  currency_uuid: Type.String({ format: 'uuid' }),
  currency: Type.String(),
  chain: Type.Union([oneOf(CHAIN_IDS), Type.Null()]),
  amount: Amount,
  /** The counterpart address or account, when there is one. */
  address: Type.Union([Type.String(), Type.Null()]),
  tx_hash: Type.Union([Type.String(), Type.Null()]),
  confirmations: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  /**
   * What the record belongs to: the activity feed item (`GET /api/v2/activity/{id}`)
   * of the order, deposit, card payment or fee that wrote it — an exchange's
   * three records share one. Null only for a record nothing in the feed stands for.
   */
  activity_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  activity_type: Type.Union([oneOf(ACTIVITY_TYPES), Type.Null()]),
  /** To word the record without the feed: whom it went to or came from. */
  counterparty_name: Type.Union([Type.String(), Type.Null()]),
  /** The card merchant's name (a card payment's money coming back to the wallet). */
  merchant: Type.Union([Type.String(), Type.Null()]),
  /** The two currencies' codes of an own movement (exchange, transfer, card top-up): "USDT" → "BTC". */
  from_currency: Type.Union([Type.String(), Type.Null()]),
  to_currency: Type.Union([Type.String(), Type.Null()]),
  card_last4: Type.Union([Type.String({ pattern: '^[0-9]{4}$' }), Type.Null()]),
})
export type WalletTransaction = Static<typeof WalletTransaction>

/** `GET /wallets/{wallet_uuid}/transactions` and the v1 CSV take the same filters. */
export const TransactionQuery = Type.Composite([
  HistoryQuery,
  Type.Object({
    type: Type.Optional(oneOf(TRANSACTION_TYPES)),
    method: Type.Optional(oneOf(TRANSACTION_METHODS)),
    status: Type.Optional(oneOf(TRANSACTION_STATUSES)),
    record_type: Type.Optional(oneOf(RECORD_TYPES)),
    currency: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
  }),
])
export const TransactionList = HistoryPage(WalletTransaction)
export type TransactionList = Static<typeof TransactionList>
