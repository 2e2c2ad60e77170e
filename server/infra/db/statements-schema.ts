import type { ColumnType } from 'kysely'
import type {
  StatementFormat,
  StatementLanguage,
  StatementScopeType,
  StatementStatus,
} from '../../../contract/statements.ts'

/** The tables of migration 0032 (issue 31: statements), joined into `DB` in schema.ts. */

export interface StatementsTable {
  id: string
  tenant_id: string
  user_id: string
  scope_type: StatementScopeType
  scope_id: string
  period_from: Date
  period_to: Date
  format: StatementFormat
  language: StatementLanguage
  time_zone: string
  status: StatementStatus
  progress: ColumnType<number, number | undefined, number>
  code: string
  holder_initials: string
  account_last4: string
  sha256: string | null
  /** bytea: a Buffer in, a Uint8Array back (PGlite) or a Buffer (node-postgres). */
  file: ColumnType<Uint8Array | null, Buffer | null, Buffer | null>
  file_name: string | null
  content_type: string | null
  link_hash: string | null
  link_expires_at: Date | null
  request_id: string | null
  request_hash: string | null
  created_at: Date
  updated_at: Date
}

export interface StatementTables {
  statements: StatementsTable
}
