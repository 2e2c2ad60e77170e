import type { Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'

/**
 * Whether a session just opened comes from a device the person has not used
 * before: they signed in earlier, and never with this user agent. A first
 * sign-in (sign-up) is no new device. The device is known by its user agent
 * alone — a rough key, kept in this one function so a better one (issue 21's
 * device records) can replace it.
 */
export async function isNewDevice(
  trx: Transaction<DB>,
  session: { userId: string; sessionId: string; userAgent: string | undefined },
): Promise<boolean> {
  const earlier = () =>
    trx
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', session.userId)
      .where('id', '<>', session.sessionId)
      .limit(1)
  if (!(await earlier().executeTakeFirst())) return false
  const agent = session.userAgent?.slice(0, 512) ?? null
  const same = await earlier()
    .where((eb) => (agent === null ? eb('user_agent', 'is', null) : eb('user_agent', '=', agent)))
    .executeTakeFirst()
  return !same
}
