import type { Kysely } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import type { JobHandler, JobRunner } from '../../infra/jobs.ts'
import { ensurePending } from '../../infra/periodic-jobs.ts'
import { assertNever } from '../../infra/problem.ts'
import { PublishError, type PublishFailure } from './errors.ts'
import { tenantsWithKeys } from './repository.ts'
import { nextUtcDay } from './rules.ts'
import type { ProofService } from './service.ts'

/** The daily round: every tenant with a proof key publishes the day's snapshot. */
export const PUBLISH_JOB = 'proofs.publish'

/** After a round some tenant could not publish in (money still arriving), the next try. */
export const RETRY_MS = 60_000

/** What the log says when a tenant's snapshot could not be published. */
export function publishFailureText(failure: PublishFailure): string {
  switch (failure.kind) {
    case 'PROOF_KEY_MISSING':
      return `tenant ${failure.tenantId} has no proof key: npm run tenant -- proofs key ${failure.tenantId}`
    case 'BALANCES_UNSETTLED': {
      const people = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`
      const reasons = [
        failure.pending > 0 && `money still arriving for ${people(failure.pending)}`,
        failure.negative > 0 && `a balance below zero for ${people(failure.negative)}`,
      ]
      return `${reasons.filter(Boolean).join(' and ')}: a snapshot waits until every balance is settled`
    }
    case 'LIABILITIES_MISMATCH':
      return `the tree's root sums ${failure.root} are not the ledger's liabilities ${failure.ledger}: nothing was published`
    default:
      return assertNever(failure)
  }
}

/**
 * One round, then the next: tomorrow (UTC) when every tenant published, in
 * a minute when one could not. A tenant's failure is logged as an error and
 * does not stop the others'.
 */
export function publishRound(service: ProofService): JobHandler {
  return async (_job, { db, log, now }) => {
    let failed = 0
    for (const tenantId of await tenantsWithKeys(db)) {
      try {
        const { root, published } = await service.publish(tenantId, now)
        if (published) {
          log.info(
            { tenant: tenantId, snapshot: root.snapshot_id, leaf_count: root.leaf_count },
            'proof of balances published',
          )
        }
      } catch (error) {
        failed++
        const reason = error instanceof PublishError ? publishFailureText(error.failure) : undefined
        log.error({ err: error, tenant: tenantId, reason }, 'proof of balances not published')
      }
    }
    return { again: failed > 0 ? new Date(now.getTime() + RETRY_MS) : nextUtcDay(now) }
  }
}

/**
 * At start: the round is due now when a tenant has not published today (a
 * fresh demo gets its first proof within seconds), else at the next UTC day.
 */
export async function schedulePublishing(
  db: Kysely<DB>,
  jobs: Pick<JobRunner, 'enqueue'>,
  service: ProofService,
  now: Date,
): Promise<void> {
  if (await service.dayUnpublished(now)) {
    await ensurePending(db, jobs, PUBLISH_JOB, now, { bringForward: true })
  } else {
    await ensurePending(db, jobs, PUBLISH_JOB, nextUtcDay(now))
  }
}
