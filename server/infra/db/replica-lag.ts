import { type Kysely, sql } from 'kysely'
import type { DB } from './schema.ts'

export interface ReplicaLag {
  /** WAL the primary has written that the replica has not replayed yet. */
  bytes: number
  /**
   * How old the replica's view is: 0 when it has replayed everything the primary wrote,
   * else the time since the last transaction it replayed committed on the primary.
   */
  seconds: number
}

/** A pg_lsn ("16/B374D848") as one number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split('/')
  if (high === undefined || low === undefined) throw new Error(`not a WAL position: ${lsn}`)
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`)
}

/**
 * How far `replica` is behind `primary`; undefined when `replica` is not a standby (it
 * replays nothing: a misconfiguration, or a test's stand-in). The primary is read first,
 * so a replica that catches up in between shows no lag rather than a negative one.
 */
export async function replicaLag(
  primary: Kysely<DB>,
  replica: Kysely<DB>,
): Promise<ReplicaLag | undefined> {
  const written = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(
    primary,
  )
  const standby = await sql<{ replayed: string | null; since: number | null }>`
    select pg_last_wal_replay_lsn()::text as replayed,
           extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since`.execute(
    replica,
  )
  const replayed = standby.rows[0]?.replayed
  const lsn = written.rows[0]?.lsn
  if (!replayed || !lsn) return undefined
  const behind = lsnBytes(lsn) - lsnBytes(replayed)
  if (behind <= 0n) return { bytes: 0, seconds: 0 }
  return { bytes: Number(behind), seconds: Math.max(0, standby.rows[0]?.since ?? 0) }
}
