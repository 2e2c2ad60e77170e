import type { FastifyInstance } from 'fastify'
import { AUTO_TOP_UP_JOB } from './run-auto-top-up.ts'

/** What the auto top-up tests read back: its runs, orders, events and jobs, and every due job run. */
export function autoTopUpReads(appOf: () => FastifyInstance) {
  /** Every due job, until none is left (the top-up's, then its order's, then the events'). */
  async function drain() {
    for (;;) {
      const report = await appOf().jobs.runDue({ limit: 100 })
      if (report.done + report.rescheduled + report.failed === 0) return
    }
  }

  const ordersOf = (walletId: string) =>
    appOf()
      .db.selectFrom('orders')
      .select(['id', 'order_type', 'status'])
      .where('wallet_id', '=', walletId)
      .execute()

  const eventsOf = (accountId: string) =>
    appOf()
      .db.selectFrom('events')
      .select(['kind', 'payload'])
      .where('kind', 'in', ['card.auto_top_up.placed', 'card.auto_top_up.failed'])
      .where(({ ref, eb }) =>
        eb(ref('payload', '->>').key('fiat_account_id' as never), '=', accountId),
      )
      .orderBy('id')
      .execute()

  const runsOf = (accountId: string) =>
    appOf()
      .db.selectFrom('card_auto_top_up_runs')
      .select(['status', 'amount_minor', 'failure', 'order_id'])
      .where('fiat_account_id', '=', accountId)
      .orderBy('created_at')
      .execute()

  const autoTopUpJobs = () =>
    appOf()
      .db.selectFrom('jobs')
      .select(['done_at', 'attempts', 'last_error'])
      .where('kind', '=', AUTO_TOP_UP_JOB)
      .execute()

  return { drain, ordersOf, eventsOf, runsOf, autoTopUpJobs }
}
