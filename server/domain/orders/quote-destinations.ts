import type { Kysely } from 'kysely'
import type { OrderTarget, QuoteQuery } from '../../../contract/orders.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { DB, StoredPayee } from '../../infra/db/schema.ts'
import { validateAddress } from '../addresses/validate.ts'
import { maskDestination } from '../counterparties/rules.ts'
import { findDestinationForWallet } from '../counterparties/service.ts'
import type { Owner } from '../owner.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { QuoteError, type QuoteField, quoteRejected } from './errors.ts'
import { CARD_SUB_ACCOUNT_TYPES, isExchangeable, isWholesaleSource } from './pricing.ts'
import { currencyName, invalid, requireBankRail } from './quote-input.ts'
import { type CurrencyRow, findAddressOwner, findFiatAccount } from './quote-repository.ts'
import { payeeOf } from './rules.ts'

/** Where the money goes, resolved and checked, and what that means for the price. */
export interface Resolved {
  to: CurrencyRow
  target: OrderTarget
  /** What the rail will be told, fixed now (schema.ts StoredPayee); null when no one is paid. */
  payee: StoredPayee | null
  /** A withdrawal to an outside address: the chain's fee is charged. */
  networkFee: boolean
  /** Card top-ups: the program's top-up percentage. */
  programPercent?: string
}

const emptyTarget = {
  wallet_uuid: null,
  counterparty_account_id: null,
  counterparty_destination_id: null,
  destination_type: null,
  fiat_account_id: null,
  chain: null,
  address: null,
} satisfies Omit<OrderTarget, 'kind' | 'display'>

/** One of the person's wallets, or WALLET_NOT_FOUND (WalletError). */
export async function ownWallet(db: Kysely<DB>, owner: Owner, walletId: string) {
  const wallet = await findWallet(db, owner, walletId)
  if (!wallet) throw walletNotFound()
  return wallet
}

/**
 * Where a quote's money goes: the order type's target resolved from the query (a saved
 * destination, a typed address, a wallet, a card's account), checked as the type needs it,
 * and what that means for the price (a network fee, the program's top-up percentage).
 */
export class QuoteDestinations {
  constructor(
    private readonly db: Kysely<DB>,
    /** A catalogue currency by uuid, or the field's 422 CURRENCY_NOT_FOUND. */
    private readonly currency: (uuid: string, field: QuoteField) => Promise<CurrencyRow>,
  ) {}

  async resolve(
    owner: Owner,
    query: QuoteQuery,
    from: CurrencyRow,
    walletType: WalletType,
  ): Promise<Resolved> {
    const type = query.order_type
    switch (type) {
      case 'DEPOSIT_FIAT_SEPA':
      case 'DEPOSIT_FIAT_SWIFT': {
        requireBankRail(type, from)
        const rail = type === 'DEPOSIT_FIAT_SEPA' ? 'SEPA' : 'SWIFT'
        return {
          to: from,
          networkFee: false,
          payee: null,
          target: {
            ...emptyTarget,
            kind: 'bank_deposit',
            wallet_uuid: query.wallet_uuid,
            display: `${rail} bank transfer into this wallet`,
          },
        }
      }
      case 'WITHDRAWAL_FIAT_SEPA': {
        requireBankRail(type, from)
        const destination = await this.#destination(owner, query)
        if (destination.type !== 'SEPA') {
          throw quoteRejected(
            'DESTINATION_TYPE_MISMATCH',
            'destination_id',
            `${type} pays a SEPA destination; this one is ${destination.type}.`,
          )
        }
        return {
          to: from,
          networkFee: false,
          payee: payable(destination),
          target: {
            ...emptyTarget,
            kind: 'counterparty',
            counterparty_account_id: destination.counterparty_account_id,
            counterparty_destination_id: destination.counterparty_destination_id,
            destination_type: destination.type,
            display: `${destination.counterparty_name} · ${destination.display}`,
          },
        }
      }
      case 'WITHDRAWAL_CRYPTO':
        return this.#cryptoTarget(owner, query, from)
      case 'EXCHANGE_CRYPTO_INTERNAL': {
        if (query.to_uuid === undefined) throw invalid('to_uuid', `is required for ${type}`)
        const to = await this.currency(query.to_uuid, 'to_uuid')
        if (!isExchangeable(from, to)) {
          throw quoteRejected(
            'DIRECTION_NOT_OFFERED',
            'to_uuid',
            from.code === to.code && from.uuid !== to.uuid
              ? `${currencyName(from)} into ${currencyName(to)} is a move between chains, not an exchange.`
              : 'An exchange needs two different currencies.',
          )
        }
        const targetWallet =
          query.to_wallet_uuid === undefined || query.to_wallet_uuid === query.wallet_uuid
            ? { id: query.wallet_uuid, type: walletType, same: true }
            : { ...(await ownWallet(this.db, owner, query.to_wallet_uuid)), same: false }
        return {
          to,
          networkFee: false,
          payee: null,
          target: {
            ...emptyTarget,
            kind: 'wallet',
            wallet_uuid: targetWallet.id,
            display: targetWallet.same ? 'This wallet' : `Your ${targetWallet.type} wallet`,
          },
        }
      }
      case 'TRANSFER_CARD_PREPAID':
      case 'TRANSFER_CARD_SUBACCOUNT':
      case 'TRANSFER_CARD_WHOLESALE':
        return this.#cardTarget(owner, query, from)
    }
  }

  async #destination(owner: Owner, query: QuoteQuery) {
    if (query.destination_id === undefined) {
      throw invalid('destination_id', `is required for ${query.order_type}`)
    }
    const destination = await findDestinationForWallet(this.db, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      walletId: query.wallet_uuid,
      destinationId: query.destination_id,
    })
    if (!destination) throw new QuoteError({ kind: 'DESTINATION_NOT_FOUND' })
    return destination
  }

  /**
   * A saved crypto destination or a typed address. What lands in one of the
   * tenant's wallets — a CRYPTO_INTERNAL destination, or an address (typed or
   * saved) of a wallet on the platform — is paid inside the ledger: target
   * kind 'wallet' with its `wallet_uuid` (a saved destination keeps its
   * counterparty ids), and no network fee. Anything else goes on chain to
   * `target.chain`/`address`: kind 'address', or 'counterparty' when saved.
   * An address of the paying wallet itself is refused.
   */
  async #cryptoTarget(owner: Owner, query: QuoteQuery, from: CurrencyRow): Promise<Resolved> {
    const type = query.order_type
    if (from.type === 'fiat' || !from.chain) {
      throw quoteRejected(
        'CURRENCY_NOT_ALLOWED',
        'from_uuid',
        `${type} withdraws a coin or token, not ${from.code}.`,
      )
    }
    const chain = from.chain
    if (query.destination_id !== undefined && query.address !== undefined) {
      throw invalid('address', 'cannot be given with destination_id: give one of them')
    }
    if (query.address !== undefined) {
      const check = validateAddress(chain, query.address)
      if (!check.ok) {
        throw quoteRejected(
          'ADDRESS_INVALID',
          'address',
          `Not a ${chain} address: ${check.reason}.`,
        )
      }
      const address = check.normalized
      const shown = maskDestination('CRYPTO_EXTERNAL', {
        iban: null,
        account_number: null,
        address,
        wallet_uuid: null,
      })
      const owned = await this.#addressOwner(owner, query, chain, address, 'address')
      return {
        to: from,
        networkFee: owned === undefined,
        payee: { kind: 'chain_address', chain, address },
        target: {
          ...emptyTarget,
          kind: owned === undefined ? 'address' : 'wallet',
          wallet_uuid: owned ?? null,
          chain,
          address,
          display: shown,
        },
      }
    }
    if (query.destination_id === undefined) {
      throw invalid('destination_id', `is required for ${type} (or give address)`)
    }
    const destination = await this.#destination(owner, query)
    const base = {
      ...emptyTarget,
      kind: 'counterparty' as const,
      counterparty_account_id: destination.counterparty_account_id,
      counterparty_destination_id: destination.counterparty_destination_id,
      destination_type: destination.type,
      display: `${destination.counterparty_name} · ${destination.display}`,
    }
    if (destination.type === 'CRYPTO_INTERNAL') {
      if (destination.wallet_uuid === query.wallet_uuid) {
        throw quoteRejected(
          'TARGET_IS_SOURCE',
          'destination_id',
          'This destination is the paying wallet itself.',
        )
      }
      return {
        to: from,
        networkFee: false,
        payee: payable(destination),
        target: { ...base, kind: 'wallet', wallet_uuid: destination.wallet_uuid, chain },
      }
    }
    if (destination.type !== 'CRYPTO_EXTERNAL') {
      throw quoteRejected(
        'DESTINATION_TYPE_MISMATCH',
        'destination_id',
        `${type} pays a crypto destination; this one is ${destination.type}.`,
      )
    }
    if (destination.chain !== chain) {
      throw quoteRejected(
        'CHAIN_MISMATCH',
        'destination_id',
        `This destination is on ${destination.chain}; ${currencyName(from)} is sent on ${chain}.`,
      )
    }
    const owned = await this.#addressOwner(
      owner,
      query,
      chain,
      destination.address!,
      'destination_id',
    )
    return {
      to: from,
      networkFee: owned === undefined,
      payee: payable(destination),
      target: {
        ...base,
        kind: owned === undefined ? 'counterparty' : 'wallet',
        wallet_uuid: owned ?? null,
        chain,
        address: destination.address,
      },
    }
  }

  /** The tenant's wallet holding the address, if any; the paying wallet's own is refused. */
  async #addressOwner(
    owner: Owner,
    query: QuoteQuery,
    chain: NonNullable<CurrencyRow['chain']>,
    address: string,
    field: QuoteField,
  ) {
    const walletId = await findAddressOwner(this.db, owner.tenantId, chain, address)
    if (walletId === query.wallet_uuid) {
      throw quoteRejected(
        'TARGET_IS_SOURCE',
        field,
        'This address belongs to the paying wallet itself.',
      )
    }
    return walletId
  }

  async #cardTarget(owner: Owner, query: QuoteQuery, from: CurrencyRow): Promise<Resolved> {
    const type = query.order_type
    if (query.fiat_account_id === undefined) {
      throw invalid('fiat_account_id', `is required for ${type}`)
    }
    const account = await findFiatAccount(this.db, owner, query.fiat_account_id)
    if (!account) throw new QuoteError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
    const types = CARD_SUB_ACCOUNT_TYPES[type]!
    if (!types.includes(account.sub_account_type)) {
      throw quoteRejected(
        'FIAT_ACCOUNT_TYPE_MISMATCH',
        'fiat_account_id',
        `${type} tops up a ${types.join(' or ')} account; this one is ${account.sub_account_type}.`,
      )
    }
    if (account.status !== 'ACTIVE') {
      throw quoteRejected(
        'FIAT_ACCOUNT_NOT_ACTIVE',
        'fiat_account_id',
        `This account is ${account.status}: it takes no top-ups.`,
      )
    }
    const to = await this.currency(account.currency_uuid, 'fiat_account_id')
    if (type === 'TRANSFER_CARD_WHOLESALE' ? !isWholesaleSource(from) : from.uuid !== to.uuid) {
      throw quoteRejected(
        'CURRENCY_NOT_ALLOWED',
        'from_uuid',
        type === 'TRANSFER_CARD_WHOLESALE'
          ? `${type} is paid in USDT or USDC, not ${from.code}.`
          : `This account holds ${to.code}: ${type} is paid in ${to.code}.`,
      )
    }
    return {
      to,
      networkFee: false,
      payee: null,
      programPercent: account.fee_top_up_percent,
      target: {
        ...emptyTarget,
        kind: 'fiat_account',
        wallet_uuid: account.wallet_id,
        fiat_account_id: account.id,
        display: `${account.program_name} · ${to.code}`,
      },
    }
  }
}

/** A saved destination checked for its order type has its payout fields. */
function payable(destination: Parameters<typeof payeeOf>[0]): StoredPayee {
  const payee = payeeOf(destination)
  if (!payee) throw new Error(`a ${destination.type} destination without its payout fields`)
  return payee
}
