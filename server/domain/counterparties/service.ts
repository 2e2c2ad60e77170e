import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type {
  Counterparty,
  CounterpartyList,
  CounterpartyQuery,
  CreateCounterpartyBody,
  CreateDestinationBody,
  Destination,
  DestinationList,
  DestinationQuery,
  UpdateCounterpartyBody,
  UpdateDestinationBody,
} from '../../../contract/counterparties.ts'
import type { DB } from '../../infra/db/schema.ts'
import { isKnownCountry } from '../location/countries.ts'
import type { Owner } from '../owner.ts'
import { pageOf } from '../page.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { CounterpartyError } from './errors.ts'
import * as repo from './repository.ts'
import {
  type CounterpartyFields,
  checkCounterparty,
  checkDestination,
  counterpartyName,
  DESTINATION_FIELDS,
  type DestinationFields,
  type FieldError,
  maskDestination,
} from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

/**
 * The people and businesses a wallet's owner pays, and where each can be paid.
 * Everything is reached through a wallet of the caller's: another user's (or
 * tenant's) wallet answers WALLET_NOT_FOUND (WalletError), exactly like one that does not
 * exist, and so does everything under it.
 */
export class CounterpartyService {
  constructor(private readonly db: Kysely<DB>) {}

  /** Alphabetical by display name. @throws WALLET_NOT_FOUND (WalletError) */
  async listCounterparties(
    owner: Owner,
    walletId: string,
    query: CounterpartyQuery,
  ): Promise<CounterpartyList> {
    const scope = await this.#wallet(this.db, owner, walletId)
    const filter = { type: query.type, search: query.search }
    const [rows, total] = await Promise.all([
      repo.findCounterparties(this.db, scope, filter, query),
      repo.countCounterparties(this.db, scope, filter),
    ])
    return pageOf(rows.map(toCounterparty), total, query)
  }

  /** @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_INVALID */
  async createCounterparty(
    owner: Owner,
    walletId: string,
    body: CreateCounterpartyBody,
    now = new Date(),
  ): Promise<Counterparty> {
    const fields = validCounterparty({
      type: body.type,
      first_name: body.first_name ?? null,
      last_name: body.last_name ?? null,
      legal_name: body.legal_name ?? null,
      email: body.email ?? null,
      phone: body.phone ?? null,
      country: body.country,
      address: body.address ?? null,
    })
    return this.db.transaction().execute(async (trx) => {
      const scope = await this.#wallet(trx, owner, walletId)
      const id = uuidv7()
      await repo.insertCounterparty(trx, scope, id, fields, now)
      return toCounterparty(await this.#counterparty(trx, scope, id))
    })
  }

  /** @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND */
  async getCounterparty(owner: Owner, walletId: string, id: string): Promise<Counterparty> {
    const scope = await this.#wallet(this.db, owner, walletId)
    return toCounterparty(await this.#counterparty(this.db, scope, id))
  }

  /**
   * Changes the fields sent (null clears an optional one) and checks the
   * result as a whole: clearing an individual's last name is refused.
   * @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND, COUNTERPARTY_INVALID
   */
  async updateCounterparty(
    owner: Owner,
    walletId: string,
    id: string,
    patch: UpdateCounterpartyBody,
  ): Promise<Counterparty> {
    return this.db.transaction().execute(async (trx) => {
      const scope = await this.#wallet(trx, owner, walletId)
      const row = await this.#counterparty(trx, scope, id)
      const fields = validCounterparty({ ...counterpartyFields(row), ...patch })
      await repo.updateCounterparty(trx, scope, id, fields)
      return toCounterparty(await this.#counterparty(trx, scope, id))
    })
  }

  /** Oldest first. @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND */
  async listDestinations(
    owner: Owner,
    walletId: string,
    counterpartyId: string,
    query: DestinationQuery,
  ): Promise<DestinationList> {
    const scope = await this.#counterpartyScope(this.db, owner, walletId, counterpartyId)
    const filter = { type: query.type }
    const [rows, total] = await Promise.all([
      repo.findDestinations(this.db, scope, filter, query),
      repo.countDestinations(this.db, scope, filter),
    ])
    return pageOf(rows.map(toDestination), total, query)
  }

  /** @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND, DESTINATION_INVALID */
  async createDestination(
    owner: Owner,
    walletId: string,
    counterpartyId: string,
    body: CreateDestinationBody,
    now = new Date(),
  ): Promise<Destination> {
    const { type, ...given } = body
    return this.db.transaction().execute(async (trx) => {
      const scope = await this.#counterpartyScope(trx, owner, walletId, counterpartyId)
      const fields = await validDestination(trx, type, given, {
        tenantId: owner.tenantId,
        sourceWalletId: walletId,
      })
      return toDestination(await repo.insertDestination(trx, scope, uuidv7(), type, fields, now))
    })
  }

  /** @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND, DESTINATION_NOT_FOUND */
  async getDestination(
    owner: Owner,
    walletId: string,
    counterpartyId: string,
    id: string,
  ): Promise<Destination> {
    const scope = await this.#counterpartyScope(this.db, owner, walletId, counterpartyId)
    const row = await repo.findDestination(this.db, scope, id)
    if (!row) throw new CounterpartyError({ kind: 'DESTINATION_NOT_FOUND' })
    return toDestination(row)
  }

  /**
   * Lays the fields sent over the stored destination and checks the result as
   * a whole against its rail (which cannot change). While an order that is not
   * final pays it, only the label may change: the payout must go where the
   * person saw it would when they placed the order.
   * @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND, DESTINATION_NOT_FOUND,
   *   DESTINATION_INVALID, DESTINATION_IN_USE
   */
  async updateDestination(
    owner: Owner,
    walletId: string,
    counterpartyId: string,
    id: string,
    patch: UpdateDestinationBody,
  ): Promise<Destination> {
    return this.db.transaction().execute(async (trx) => {
      const scope = await this.#counterpartyScope(trx, owner, walletId, counterpartyId)
      const row = await repo.findDestination(trx, scope, id, { lock: true })
      if (!row) throw new CounterpartyError({ kind: 'DESTINATION_NOT_FOUND' })
      const stored = repo.destinationFields(row)
      const fields = await validDestination(
        trx,
        row.type,
        { ...stored, ...patch },
        { tenantId: owner.tenantId, sourceWalletId: walletId },
      )
      const payoutChanged = DESTINATION_FIELDS.some(
        (field) => field !== 'label' && fields[field] !== stored[field],
      )
      if (payoutChanged && (await repo.hasOpenOrders(trx, owner.tenantId, id))) {
        throw new CounterpartyError({ kind: 'DESTINATION_IN_USE' })
      }
      return toDestination(await repo.updateDestination(trx, scope, id, fields))
    })
  }

  /**
   * Takes the destination out of the book. The row stays (orders that paid it
   * reference it) but is never listed, found or paid again. The row lock
   * queues this behind an order being placed on it (findDestinationForWallet
   * with `lock`), so the open-order check cannot miss one.
   * @throws WALLET_NOT_FOUND (WalletError), COUNTERPARTY_NOT_FOUND, DESTINATION_NOT_FOUND,
   *   DESTINATION_IN_USE
   */
  async deleteDestination(
    owner: Owner,
    walletId: string,
    counterpartyId: string,
    id: string,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const scope = await this.#counterpartyScope(trx, owner, walletId, counterpartyId)
      const row = await repo.findDestination(trx, scope, id, { lock: true })
      if (!row) throw new CounterpartyError({ kind: 'DESTINATION_NOT_FOUND' })
      if (await repo.hasOpenOrders(trx, owner.tenantId, id))
        throw new CounterpartyError({ kind: 'DESTINATION_IN_USE' })
      await repo.markDestinationDeleted(trx, scope, id)
    })
  }

  async #wallet(db: Executor, owner: Owner, walletId: string): Promise<repo.WalletScope> {
    if (!(await findWallet(db, owner, walletId))) throw walletNotFound()
    return { tenantId: owner.tenantId, walletId }
  }

  async #counterparty(db: Executor, scope: repo.WalletScope, id: string) {
    const row = await repo.findCounterparty(db, scope, id)
    if (!row) throw new CounterpartyError({ kind: 'COUNTERPARTY_NOT_FOUND' })
    return row
  }

  async #counterpartyScope(
    db: Executor,
    owner: Owner,
    walletId: string,
    counterpartyId: string,
  ): Promise<repo.CounterpartyScope> {
    const scope = await this.#wallet(db, owner, walletId)
    await this.#counterparty(db, scope, counterpartyId)
    return { tenantId: owner.tenantId, counterpartyId }
  }
}

function validCounterparty(fields: CounterpartyFields): CounterpartyFields {
  const verdict = checkCounterparty(fields, { isKnownCountry })
  if (!verdict.ok)
    throw new CounterpartyError({ kind: 'COUNTERPARTY_INVALID', errors: verdict.errors })
  return verdict.value
}

/**
 * The rail's rules (rules.ts) plus the one that needs the database: an
 * internal destination is a wallet of the same tenant, other than the one the
 * counterparty is paid from. All errors come back together.
 */
async function validDestination(
  db: Executor,
  type: Destination['type'],
  given: Partial<DestinationFields>,
  context: { tenantId: string; sourceWalletId: string },
): Promise<DestinationFields> {
  const verdict = checkDestination(type, given, { isKnownCountry })
  const errors: FieldError[] = verdict.ok ? [] : [...verdict.errors]
  const walletId = type === 'CRYPTO_INTERNAL' ? given.wallet_uuid?.toLowerCase() : undefined
  if (walletId) {
    if (walletId === context.sourceWalletId.toLowerCase()) {
      errors.push({
        field: '/body/wallet_uuid',
        message: 'is the wallet this counterparty is paid from',
      })
    } else if (!(await repo.walletExistsInTenant(db, context.tenantId, walletId))) {
      errors.push({ field: '/body/wallet_uuid', message: 'is not a wallet of this platform' })
    }
  }
  if (!verdict.ok || errors.length > 0)
    throw new CounterpartyError({ kind: 'DESTINATION_INVALID', errors })
  return verdict.value
}

const counterpartyFields = (row: repo.CounterpartyRow): CounterpartyFields => ({
  type: row.type,
  first_name: row.first_name,
  last_name: row.last_name,
  legal_name: row.legal_name,
  email: row.email,
  phone: row.phone,
  country: row.country,
  address: row.address,
})

function toCounterparty(row: repo.CounterpartyRow): Counterparty {
  return {
    counterparty_account_id: row.id,
    wallet_id: row.wallet_id,
    type: row.type,
    name: counterpartyName(row),
    first_name: row.first_name,
    last_name: row.last_name,
    legal_name: row.legal_name,
    email: row.email,
    phone: row.phone,
    country: row.country,
    address: row.address,
    destinations_count: Number(row.destinations_count ?? 0),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The masked summary of a stored destination: "DE89 … 3000", "••6819", "bc1q…f3k9". */
export function destinationDisplay(row: repo.DestinationRow): string {
  return maskDestination(row.type, repo.destinationFields(row))
}

function toDestination(row: repo.DestinationRow): Destination {
  const { wallet_uuid, ...fields } = repo.destinationFields(row)
  return {
    counterparty_destination_id: row.id,
    counterparty_account_id: row.counterparty_id,
    type: row.type,
    ...fields,
    wallet_uuid,
    display: destinationDisplay(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** A destination as the orders area resolves a quote's target. */
export type DestinationForWallet = Destination & {
  /** The counterparty's display name: "Anna Schmidt", "Acme GmbH". */
  counterparty_name: string
  /** The wallet the counterparty belongs to: the wallet that pays it. */
  wallet_id: string
}

/**
 * For the orders area: the live destination `destinationId` if the user may
 * pay it — its counterparty belongs to a wallet of the user's in the tenant,
 * and to `walletId` when given — with its counterparty's display name.
 * Undefined for anything else (unknown, deleted, another user's or tenant's),
 * so the caller answers one "not found" for all of them.
 *
 * Pass `lock: true` inside the transaction that places an order on the
 * destination: it takes a share lock on the destination's row until that
 * transaction ends, so a concurrent DELETE waits and then sees the order
 * (409 DESTINATION_IN_USE) instead of deleting a destination being paid.
 */
export async function findDestinationForWallet(
  db: Executor,
  lookup: repo.DestinationLookup & { lock?: boolean },
): Promise<DestinationForWallet | undefined> {
  const { lock, ...where } = lookup
  const row = await repo.findOwnedDestination(db, where, { lock })
  if (!row) return undefined
  return {
    ...toDestination(row),
    counterparty_name: counterpartyName({
      type: row.counterparty_type,
      first_name: row.first_name,
      last_name: row.last_name,
      legal_name: row.legal_name,
    }),
    wallet_id: row.wallet_id,
  }
}
