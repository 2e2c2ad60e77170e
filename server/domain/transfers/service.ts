import type { Kysely } from 'kysely'
import { toMinor } from '../../../contract/money.ts'
import type {
  CreateTransferBody,
  PeopleLookupQuery,
  PersonLookup,
  RecentPeople,
  Transfer,
  TransferTarget,
} from '../../../contract/transfers.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import type { RatesProvider } from '../../providers/rates/rates.ts'
import type { Owner } from '../owner.ts'
import { type ClaimDeps, claimForNewcomer, deliverClaimable, returnUnclaimed } from './claims.ts'
import { TransferError } from './errors.ts'
import * as repo from './repository.ts'
import { type Addressee, addresseeOf, displayName, initialOf, needsSecondLook } from './rules.ts'
import { amountOf, type RequestPayment, sendTransfer } from './send-transfer.ts'
import { toTransfer } from './view.ts'

export { CLAIM_DELIVERY_JOB, CLAIM_RETURN_JOB } from './send-transfer.ts'

/** How many recent people the picker shows first. */
export const RECENT_PEOPLE = 10

/**
 * Transfers between people of a tenant (issue 32): sending one
 * (send-transfer.ts), the claims and returns of those waiting for a contact
 * (claims.ts), finding people without telling who is a customer, and the
 * second look's question for a first payment to someone new.
 */
export class TransferService {
  readonly #claims: ClaimDeps

  constructor(
    private readonly db: Kysely<DB>,
    private readonly rates: RatesProvider,
    claims: Omit<ClaimDeps, 'db'>,
  ) {
    this.#claims = { db, ...claims }
  }

  send(
    owner: Owner,
    body: CreateTransferBody,
    options: { request?: RequestPayment; now?: Date } = {},
  ) {
    return sendTransfer(
      this.db,
      owner,
      {
        to: body.to,
        walletUuid: body.wallet_uuid,
        currencyUuid: body.currency_uuid,
        amount: body.amount,
        note: body.note,
        requestId: body.request_id,
      },
      options,
    )
  }

  /** @throws TransferError TRANSFER_NOT_FOUND (another person's too) */
  async get(owner: Owner, id: string): Promise<Transfer> {
    const row = await repo.findTransfer(this.db, owner, id)
    if (!row) throw new TransferError({ kind: 'TRANSFER_NOT_FOUND' })
    const currency = await repo.findCurrency(this.db, row.currency_uuid)
    const item = await this.db
      .selectFrom('activities')
      .select('id')
      .where('tenant_id', '=', owner.tenantId)
      .where('source_type', '=', 'transfer')
      .where('source_id', '=', row.id)
      .where('user_id', '=', owner.userId)
      .executeTakeFirst()
    return toTransfer(row, currency!, owner.userId, item?.id ?? null)
  }

  /**
   * A display name and initial for a contact whose owner lets people find
   * them; the same `found: false` for a contact nobody has and for a hidden
   * one — one read either way, so not even the time differs.
   * @throws TransferError LOOKUP_INVALID (none or several contacts; a phone that is none)
   */
  async lookup(owner: Owner, query: PeopleLookupQuery): Promise<PersonLookup> {
    const given = Object.entries(query).filter(([, value]) => value !== undefined)
    if (given.length !== 1) throw new TransferError({ kind: 'LOOKUP_INVALID' })
    const addressee = addresseeOf(Object.fromEntries(given) as TransferTarget)
    if (!('kind' in addressee)) throw new TransferError({ kind: 'LOOKUP_INVALID' })
    const person = await repo.findPerson(this.db, owner.tenantId, addressee)
    if (!person?.people_discoverable || person.blocked_at !== null) {
      return { found: false, display_name: null, initial: null }
    }
    const name = displayName(person)
    return { found: true, display_name: name, initial: initialOf(name) }
  }

  async recent(owner: Owner): Promise<RecentPeople> {
    const rows = await repo.recentPeople(this.db, owner, RECENT_PEOPLE)
    return {
      data: rows.map((row) => {
        const name = displayName(row)
        return {
          user_id: row.id,
          display_name: name,
          initial: initialOf(name),
          last_at: new Date(row.last_at as unknown as string | Date).toISOString(),
        }
      }),
    }
  }

  /**
   * Whether paying `amount` of `currencyUuid` to `to` is a first payment to
   * someone new above the tenant's threshold (route-policy.ts: the second
   * look). Judged only on what the sender can know — their own payments to
   * this person or contact — so the answer never tells whether a contact that
   * cannot be found has an account. A request that cannot be judged (an
   * unknown currency, a bad amount) answers false: the use case refuses it.
   */
  async needsSecondLook(
    owner: Owner,
    payment: { to: TransferTarget | { user_id: string }; currencyUuid: string; amount: string },
  ): Promise<boolean> {
    const addressee = addresseeOf(payment.to as TransferTarget)
    if (!('kind' in addressee)) return false
    const currency = await repo.findCurrency(this.db, payment.currencyUuid)
    if (!currency) return false
    let amountMinor: bigint
    try {
      amountMinor = amountOf(payment.amount, currency.decimals)
    } catch {
      return false
    }
    const firstToPayee = !(await this.#paidBefore(owner, addressee))
    if (!firstToPayee) return false
    const threshold = await repo.stepUpThreshold(this.db, owner.tenantId)
    if (!threshold) return true
    return needsSecondLook({
      firstToPayee,
      value: await this.#value(currency, amountMinor, threshold.currency),
      thresholdMinor: toMinor(threshold.amount, 2),
    })
  }

  async #paidBefore(owner: Owner, addressee: Addressee): Promise<boolean> {
    if (addressee.kind === 'contact') {
      const sent = await repo.sentToContactBefore(
        this.db,
        owner.tenantId,
        owner.userId,
        addressee.channel,
        addressee.value,
      )
      if (sent) return true
    }
    const person = await repo.findPerson(this.db, owner.tenantId, addressee)
    // A person who may not be found is judged by the contact alone (above).
    if (!person || (addressee.kind === 'contact' && !person.people_discoverable)) return false
    return repo.paidBefore(this.db, owner.tenantId, owner.userId, person.id)
  }

  /** The amount in the display currency's cents, or undefined when no price is to be had. */
  async #value(
    currency: repo.CurrencyRow,
    amountMinor: bigint,
    display: string,
  ): Promise<bigint | undefined> {
    if (currency.code === display) return (amountMinor * 100n) / 10n ** BigInt(currency.decimals)
    try {
      const { rates } = await this.rates.quote(display, [currency.code])
      const rate = rates.get(currency.code)
      if (rate === undefined) return undefined
      const scaled = toMinor(rate, 8)
      return (amountMinor * scaled * 100n) / (10n ** BigInt(currency.decimals) * 10n ** 8n)
    } catch {
      return undefined
    }
  }

  readonly deliverClaimable = (job: Job, context: JobContext): Promise<JobResult> =>
    deliverClaimable(this.#claims, job, context)

  readonly claimForNewcomer = (job: Job, context: JobContext): Promise<JobResult> =>
    claimForNewcomer(this.#claims, job, context)

  readonly returnUnclaimed = (job: Job, context: JobContext): Promise<JobResult> =>
    returnUnclaimed(this.#claims, job, context)
}
