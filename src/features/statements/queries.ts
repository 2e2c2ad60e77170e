import { queryOptions } from '@tanstack/react-query'
import type { CreateStatementBody, Statement, StatementLink } from '../../../contract/statements.ts'
import { api } from '../../net/api.ts'
import { netConfig } from '../../net/config.ts'

/*
 * Statements (issue 31): asked for, followed while the server's job renders
 * them, then fetched as a file. Each statement is its own cache entry, read
 * again every ~second until it is ready or failed, never after: a ready
 * statement does not change.
 */

export const statementKeys = {
  all: ['statements'] as const,
  one: (id: string) => [...statementKeys.all, id] as const,
}

/** How often a statement under way is read again. */
export const PROGRESS_POLL_MS = 800

const settled = (statement: Statement | undefined) =>
  statement?.status === 'ready' || statement?.status === 'failed'

export const statementQuery = (id: string) =>
  queryOptions({
    queryKey: statementKeys.one(id),
    queryFn: ({ signal }) =>
      api.v2.get<Statement>(`/statements/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => (settled(query.state.data) ? false : PROGRESS_POLL_MS),
  })

export const createStatement = (body: CreateStatementBody) =>
  api.v2.post<Statement>('/statements', body)

/** The file, fetched with the session (the auth proxy adds it). */
export async function statementFile(statement: Statement): Promise<File> {
  const response = await fetch(
    `${netConfig.v2Base}/statements/${encodeURIComponent(statement.id)}/file`,
  )
  if (!response.ok) throw new Error(`statement file: ${response.status}`)
  const blob = await response.blob()
  return new File([blob], statement.file_name ?? `${statement.code}.${statement.format}`, {
    type: blob.type,
  })
}

/** A link Telegram's downloadFile can fetch on its own (it sends no sign-in). */
export const statementLink = (id: string) =>
  api.v2.post<StatementLink>(`/statements/${encodeURIComponent(id)}/link`)
