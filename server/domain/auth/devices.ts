import { createHash } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB } from '../../infra/db/schema.ts'

type Executor = Kysely<DB> | Transaction<DB>

export interface SignInDevice {
  tenantId: string
  userId: string
  userAgent: string | undefined
  appEnv?: 'web' | 'telegram' | undefined
}

/**
 * One device as the server can tell it apart: its user agent and the app
 * environment it runs in, hashed (the table never holds the text). Two
 * identical browsers on two machines are one "device" to this rule; a new
 * browser, system version or app environment is a new one. Without a user
 * agent there is nothing to recognise, so every such sign-in is the same
 * unnamed device.
 */
export function deviceFingerprint(device: Pick<SignInDevice, 'userAgent' | 'appEnv'>): string {
  return createHash('sha256')
    .update(`${device.appEnv ?? 'web'}\n${device.userAgent ?? ''}`)
    .digest('hex')
}

/**
 * Records the device a sign-in comes from, inside the sign-in's transaction,
 * and says whether it is new for this person: never seen before, while the
 * person had signed in from some other device (the first device of an account
 * is where it was created, not news). AuthService.startSession calls it for
 * every way in and stamps the answer on the session (`sessions.new_device`);
 * the events issue sends the "sign-in from a new device" alert from it.
 */
export async function recordSignInDevice(
  db: Executor,
  device: SignInDevice,
  now: Date,
): Promise<{ deviceId: string; newDevice: boolean }> {
  const fingerprint = deviceFingerprint(device)
  const inserted = await db
    .insertInto('user_devices')
    .values({
      id: uuidv7(),
      tenant_id: device.tenantId,
      user_id: device.userId,
      fingerprint,
      first_seen_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) {
    const other = await db
      .selectFrom('user_devices')
      .select('id')
      .where('user_id', '=', device.userId)
      .where('id', '!=', inserted.id)
      .limit(1)
      .executeTakeFirst()
    return { deviceId: inserted.id, newDevice: other !== undefined }
  }
  const known = await db
    .updateTable('user_devices')
    .set({ last_seen_at: now })
    .where('user_id', '=', device.userId)
    .where('fingerprint', '=', fingerprint)
    .returning('id')
    .executeTakeFirstOrThrow()
  return { deviceId: known.id, newDevice: false }
}
