import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { HistoryPage } from './pagination.ts'
import { WALLET_TYPES } from './wallets.ts'

/*
 * Issue 33: verifiable balances. A tenant's daily snapshot of every person's
 * balances, committed to in a Merkle-sum tree whose root the tenant signs
 * (docs/api.md, "Proof of balances", spells the encoding byte for byte; the
 * construction and the verifier are contract/balance-proof.ts).
 */

/** `CODE:AMOUNT` per currency, sorted by code, joined by `,`: minor units, never negative. */
export const Sums = Type.String({
  pattern: '^[A-Z0-9]+:(0|[1-9][0-9]*)(,[A-Z0-9]+:(0|[1-9][0-9]*))*$',
  maxLength: 4_096,
  description: 'Per currency `CODE:AMOUNT` in minor units, codes sorted, joined by `,`',
  examples: ['BTC:1275277,EUR:194800,USDT:1224975000'],
})

const Hash = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'SHA-256, lowercase hex',
})

/** The key id: the first 16 bytes of SHA-256 over the raw 32-byte Ed25519 public key, hex. */
export const KeyId = Type.String({
  pattern: '^[0-9a-f]{32}$',
  description: 'First 16 bytes of SHA-256 over the raw 32-byte public key, lowercase hex',
})

/** What the tenant signs, and the signature. */
export const ProofRoot = Type.Object({
  tenant_id: Type.String({ format: 'uuid' }),
  snapshot_id: Type.String({ format: 'uuid' }),
  /** ISO 8601 UTC with milliseconds, exactly as signed. */
  taken_at: Type.String({ format: 'date-time' }),
  /** Leaves including the zero leaves that pad the tree to a power of two. */
  leaf_count: Type.Integer({ minimum: 1 }),
  hash: Hash,
  sums: Sums,
  /** Ed25519 over the root message (docs/api.md), standard base64. */
  signature: Type.String({ pattern: '^[A-Za-z0-9+/]{86}==$' }),
  /** The key that signed it (GET /api/proofs/{tenant_id}/key answers the current one). */
  key_id: KeyId,
})
export type ProofRoot = Static<typeof ProofRoot>

/** One currency's cover: what the custodian attests the platform holds ÷ what people hold. */
export const ReserveLine = Type.Object({
  currency: Type.String({ description: 'The currency code' }),
  assets: Amount,
  liabilities: Amount,
  /** assets ÷ liabilities to 4 places, rounded down ("1.0008"); null when nobody holds any. */
  ratio: Type.Union([Type.String({ pattern: '^[0-9]+\\.[0-9]{4}$' }), Type.Null()]),
})
export type ReserveLine = Static<typeof ReserveLine>

export const Reserves = Type.Object({
  /** Who attests the assets: the custodian and bank holding them. */
  attested_by: Type.String(),
  attested_at: Type.String({ format: 'date-time' }),
  /** Every currency of the root's sums, in its order. */
  currencies: Type.Array(ReserveLine),
})
export type Reserves = Static<typeof Reserves>

/** A published root with the reserves attested when it was taken (null: no custodian wired in). */
export const PublishedRoot = Type.Composite([
  ProofRoot,
  Type.Object({ reserves: Type.Union([Reserves, Type.Null()]) }),
])
export type PublishedRoot = Static<typeof PublishedRoot>

/** Newest first; a list that grows by one a day, so `total` comes on its last page only. */
export const PublishedRootPage = HistoryPage(PublishedRoot)
export type PublishedRootPage = Static<typeof PublishedRootPage>

export const ProofKey = Type.Object({
  tenant_id: Type.String({ format: 'uuid' }),
  key_id: KeyId,
  algorithm: Type.Literal('Ed25519'),
  /** SubjectPublicKeyInfo, PEM (`-----BEGIN PUBLIC KEY-----`). */
  public_key_pem: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
})
export type ProofKey = Static<typeof ProofKey>

/** One step up from the leaf: the sibling's hash and sums, and on which side it sits. */
export const PathStep = Type.Object({
  side: oneOf(['left', 'right'] as const),
  hash: Hash,
  sums: Sums,
})
export type PathStep = Static<typeof PathStep>

export const BALANCE_SOURCES = ['wallet', 'fiat_account'] as const
export type BalanceSource = (typeof BALANCE_SOURCES)[number]

/**
 * The person's balance in one currency at the snapshot, and where it sat.
 * Amounts carry exactly the currency's decimals ("1948.00", "0.01250000"),
 * so the digits without the point are the minor units of the leaf's sums.
 */
export const SnapshotBalance = Type.Object({
  currency: Type.String(),
  amount: Amount,
  parts: Type.Array(
    Type.Object({
      source: oneOf(BALANCE_SOURCES),
      /** The wallet's uuid or the fiat account's id. */
      id: Type.String({ format: 'uuid' }),
      /** A wallet's type; null for a fiat account. */
      wallet_type: Type.Union([oneOf(WALLET_TYPES), Type.Null()]),
      /** A fiat account's program and number's last four (as GET /fiat-accounts names them); null for a wallet. */
      program_name: Type.Union([Type.String(), Type.Null()]),
      account_last4: Type.Union([Type.String({ pattern: '^[0-9]{4}$' }), Type.Null()]),
      amount: Amount,
    }),
  ),
})
export type SnapshotBalance = Static<typeof SnapshotBalance>

/** GET /api/v2/proofs/latest/mine: everything the person's device needs to check the root alone. */
export const MyProof = Type.Object({
  root: PublishedRoot,
  leaf: Type.Object({
    /** 32 random bytes, hex: given to this person only. */
    nonce: Hash,
    sums: Sums,
  }),
  /** From the leaf's sibling up to the root's children: log2(leaf_count) steps. */
  path: Type.Array(PathStep, { maxItems: 64 }),
  /** The currencies the person held anything in; the others are zero in the leaf. */
  balances_at_snapshot: Type.Array(SnapshotBalance),
})
export type MyProof = Static<typeof MyProof>

export const RootsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000, default: 0 }),
})
