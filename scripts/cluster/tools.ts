/** The Debian programs the cluster runs, found on this machine (docs/deploy.md). */
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { findPostgresBin } from '../../tests/support/postgres-cluster.ts'

export interface Tools {
  /** /usr/lib/postgresql/<version>/bin */
  postgres: string
  pgbouncer: string
  haproxy: string
}

/** The programs of the postgresql-15, pgbouncer and haproxy packages, or which are missing. */
export function findTools(): { tools: Tools | undefined; missing: string[] } {
  const postgres = findPostgresBin()
  const hasBackup = postgres !== undefined && existsSync(join(postgres, 'pg_basebackup'))
  const pgbouncer = findProgram('pgbouncer')
  const haproxy = findProgram('haproxy')
  const missing = [
    ...(hasBackup ? [] : ['postgresql-15 (initdb, pg_ctl, pg_basebackup)']),
    ...(pgbouncer ? [] : ['pgbouncer']),
    ...(haproxy ? [] : ['haproxy']),
  ]
  return {
    tools:
      missing.length === 0
        ? { postgres: postgres!, pgbouncer: pgbouncer!, haproxy: haproxy! }
        : undefined,
    missing,
  }
}

function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin']
  return dirs
    .filter((dir) => dir.startsWith('/'))
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path))
}
