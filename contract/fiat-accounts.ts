import { type Static, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { Page, PageQuery } from './pagination.ts'

/** docs/product.md §3 */
export const CARD_FORM_FACTORS = ['VIRTUAL', 'PHYSICAL'] as const
export const CARD_TYPES = ['CREDIT', 'DEBIT'] as const
export const SUB_ACCOUNT_TYPES = ['prepaid', 'balance'] as const
export type SubAccountType = (typeof SUB_ACCOUNT_TYPES)[number]

/** docs/product.md §4 */
export const PROGRAM_STATUSES = ['ACTIVE', 'ARCHIVED'] as const
export const FIAT_ACCOUNT_STATUSES = ['ACTIVE', 'BLOCKED', 'INACTIVE', 'CANCELED'] as const
export type FiatAccountStatus = (typeof FIAT_ACCOUNT_STATUSES)[number]
/** docs/product.md §4 (here rather than in cards.ts, which builds on this file; cards.ts re-exports it). */
export const CARD_STATUSES = [
  'ACTIVE',
  'FROZEN',
  'BLOCKED',
  'INACTIVE',
  'CANCELED',
  'CLOSED',
] as const

/** A card program of the tenant's card issuer (`GET /api/v1/issuing/config/programs`). */
export const CardProgram = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  status: oneOf(PROGRAM_STATUSES),
  currency_uuid: Type.String({ format: 'uuid' }),
  currency: Type.String(),
  form_factors: Type.Array(oneOf(CARD_FORM_FACTORS)),
  card_type: oneOf(CARD_TYPES),
  sub_account_type: oneOf(SUB_ACCOUNT_TYPES),
  fees: Type.Object({
    /** Charged when a card is issued. */
    issue: Amount,
    monthly: Amount,
    /** Percentage taken from a top-up ("1" = 1 %). */
    top_up_percent: Type.String(),
  }),
})
export type CardProgram = Static<typeof CardProgram>

export const CardProgramList = Page(CardProgram)
export type CardProgramList = Static<typeof CardProgramList>

/** A card as a fiat account lists it. */
export const FiatAccountCard = Type.Object({
  id: Type.String({ format: 'uuid' }),
  last4: Type.String({ pattern: '^[0-9]{4}$' }),
  nick_name: Type.Union([Type.String(), Type.Null()]),
  status: oneOf(CARD_STATUSES),
  form_factor: oneOf(CARD_FORM_FACTORS),
})
export type FiatAccountCard = Static<typeof FiatAccountCard>

/**
 * What a person needs to pay into a fiat account from a bank: its own IBAN at
 * the platform's bank, where the program's currency is taken by SEPA (EUR).
 * A SEPA credit to the IBAN lands in the account; no reference is needed
 * (the IBAN is the account's alone).
 */
export const FiatAccountBankDetails = Type.Object({
  iban: Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' }),
  bic: Type.String(),
  bank_name: Type.String(),
  /** The person's name as their profile has it; null until they give one. */
  account_holder: Type.Union([Type.String(), Type.Null()]),
})
export type FiatAccountBankDetails = Static<typeof FiatAccountBankDetails>

/**
 * A fiat account: money in one fiat currency under a card program, belonging
 * to a wallet. Cards (issue 6) spend from it; top-up orders fill it.
 */
export const FiatAccount = Type.Object({
  id: Type.String({ format: 'uuid' }),
  wallet_uuid: Type.String({ format: 'uuid' }),
  program_id: Type.String({ format: 'uuid' }),
  program_name: Type.String(),
  sub_account_type: oneOf(SUB_ACCOUNT_TYPES),
  status: oneOf(FIAT_ACCOUNT_STATUSES),
  currency_uuid: Type.String({ format: 'uuid' }),
  currency: Type.String(),
  balance: Amount,
  /**
   * The last four digits of the account's number at the issuer: with the
   * program's name, what tells two accounts of a kind apart ("EUR balance
   * account ·· 4821"). Fixed for the account's life.
   */
  account_last4: Type.String({ pattern: '^[0-9]{4}$' }),
  /** Where to send a SEPA credit into the account; null where the program has no bank rail in. */
  bank_details: Type.Union([FiatAccountBankDetails, Type.Null()]),
  /**
   * A stand-alone card's own account (`POST /issuing/cards/create` opened it):
   * it takes no other card (`/issuing/cards/balance` answers 422
   * FIAT_ACCOUNT_UNAVAILABLE), so offer no "issue a card" on it.
   */
  stand_alone: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  /**
   * With `show_cards=true`: the account's cards that are not CLOSED, oldest
   * first, by their last four digits only.
   */
  cards: Type.Optional(Type.Array(FiatAccountCard)),
})
export type FiatAccount = Static<typeof FiatAccount>

export const FiatAccountList = Page(FiatAccount)
export type FiatAccountList = Static<typeof FiatAccountList>

/**
 * Lists on both bases. `lt_cards_limit` / `gt_cards_limit` keep the accounts
 * with fewer / more cards (not CLOSED) than the number: `lt_cards_limit=2&
 * gt_cards_limit=0` is exactly the accounts with one card.
 */
/** Bound of the cards-count filters: far above any account's cards, a number SQL takes. */
export const MAX_CARDS_FILTER = 10_000

export const FiatAccountQuery = Type.Composite([
  PageQuery,
  Type.Object({
    show_cards: Type.Optional(Type.Boolean()),
    lt_cards_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CARDS_FILTER })),
    gt_cards_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CARDS_FILTER })),
  }),
])
export type FiatAccountQuery = Static<typeof FiatAccountQuery>

/** One account: `show_cards=true` adds its cards. */
export const FiatAccountDetailQuery = Type.Object({
  show_cards: Type.Optional(Type.Boolean()),
})

/** `POST /fiat-accounts/{wallet_id}` */
export const CreateFiatAccountBody = Type.Object(
  { program_id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
)
export type CreateFiatAccountBody = Static<typeof CreateFiatAccountBody>

/** `POST /api/v1/fiat_accounts` */
export const CreateFiatAccountV1Body = Type.Object(
  { wallet_id: Type.String({ format: 'uuid' }), program_id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
)
export type CreateFiatAccountV1Body = Static<typeof CreateFiatAccountV1Body>

/** `POST /api/sandbox/sepa-credits`: the sandbox bank reports a SEPA credit to an account's IBAN. */
export const SandboxSepaCreditBody = Type.Object(
  {
    iban: Type.String({
      minLength: 1,
      maxLength: 42,
      description: 'Spaces and letter case as you like',
    }),
    amount: Amount,
    currency: Type.String({ minLength: 3, maxLength: 3 }),
    sender_name: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
    sender_iban: Type.Optional(Type.String({ minLength: 1, maxLength: 42 })),
    remittance: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
    end_to_end_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 35,
        description: 'The bank’s id of the transfer; default: a new one',
      }),
    ),
  },
  { additionalProperties: false },
)
export type SandboxSepaCreditBody = Static<typeof SandboxSepaCreditBody>

export const SandboxSepaCredit = Type.Object({
  id: Type.String({ format: 'uuid' }),
  end_to_end_id: Type.String(),
  iban: Type.String(),
  amount: Amount,
  currency: Type.String(),
  fiat_account_id: Type.String({ format: 'uuid' }),
  received_at: Type.String({ format: 'date-time' }),
})
export type SandboxSepaCredit = Static<typeof SandboxSepaCredit>
