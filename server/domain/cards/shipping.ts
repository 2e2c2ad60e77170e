import type { Kysely, Transaction } from 'kysely'
import { cardFinished } from '../../../contract/cards.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult, JobRunner } from '../../infra/jobs.ts'
import * as jobRepo from './job-repository.ts'
import { nextDelivery } from './rules.ts'

/** The sandbox courier: one step of a physical card's delivery per run. */
export const CARD_DELIVERY_JOB = 'cards.delivery'

/**
 * Who carries a PHYSICAL card to its address (docs/architecture.md: an outside service
 * behind an interface). `ship` is called in the issuing transaction of every
 * new PHYSICAL card; the provider then moves the card's delivery ORDERED →
 * SHIPPED → DELIVERED as the parcel goes. Without a provider (production mode
 * until a real courier is wired in) a card stays ORDERED, so it can never be
 * activated before a real delivery.
 */
export interface ShippingProvider {
  ship(trx: Transaction<DB>, card: { tenantId: string; cardId: string }, at: Date): Promise<void>
}

/**
 * The sandbox courier, for sandbox mode only: the job CARD_DELIVERY_JOB,
 * payload `{card_id}`, queued at issue + `stepMs`, moves the delivery one
 * step per run, `stepMs` (SANDBOX_SHIPPING_MS) apart. Gated on the delivery
 * status, so a repeated run moves nothing twice; a finished (closed or
 * cancelled) card's delivery stops where it is.
 */
export class SandboxCourier implements ShippingProvider {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly jobs: Pick<JobRunner, 'enqueue'>,
    private readonly stepMs: number,
  ) {}

  async ship(trx: Transaction<DB>, card: { tenantId: string; cardId: string }, at: Date) {
    await this.jobs.enqueue(trx, {
      kind: CARD_DELIVERY_JOB,
      tenantId: card.tenantId,
      payload: { card_id: card.cardId },
      runAt: new Date(at.getTime() + this.stepMs),
    })
  }

  /** The job's handler: one step, and the next run `stepMs` later until DELIVERED. */
  readonly deliver = async (job: Job, context: JobContext): Promise<JobResult> => {
    if (!job.tenantId) throw new Error(`delivery job ${job.id} has no tenant`)
    const tenantId = job.tenantId
    const cardId = String(job.payload.card_id)
    const moved = await this.db.transaction().execute(async (trx) => {
      const card = await jobRepo.lockCardForDelivery(trx, tenantId, cardId)
      if (!card?.delivery_status || cardFinished(card.status)) return undefined
      const step = nextDelivery(card.delivery_status)
      if (step) await jobRepo.setDelivery(trx, card.id, step, context.now)
      return step
    })
    return moved && nextDelivery(moved)
      ? { again: new Date(context.now.getTime() + this.stepMs) }
      : undefined
  }
}
