import { channel } from 'node:diagnostics_channel'
import type { LogEvent } from 'kysely'

/**
 * Every statement either engine runs (BEGIN and COMMIT included), published
 * for whoever listens: the tests that keep hot paths to a few statements
 * (orders/order-statements.test.ts). Costs a check per statement when nobody does.
 */
export const statementChannel = channel('finplatform.db.statement')

/** Kysely's `log` option: hands each statement's SQL to the channel's subscribers. */
export function publishStatement(event: LogEvent): void {
  if (statementChannel.hasSubscribers) statementChannel.publish(event.query.sql)
}

/** The statements run while `work` runs: the SQL of each, in order. */
export async function statementsOf<T>(
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = []
  const listen = (sql: unknown) => statements.push(String(sql))
  statementChannel.subscribe(listen)
  try {
    const result = await work()
    return { result, statements }
  } finally {
    statementChannel.unsubscribe(listen)
  }
}
