import type { Problem } from '../../../contract/problem.ts'
import { ApiError } from '../../net/api.ts'
import { netConfig } from '../../net/config.ts'

/** The v1 CSV export of a wallet's history, with the same filters as the list. */
export function csvUrl(walletUuid: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value)
  const suffix = search.size > 0 ? `?${search}` : ''
  return `${netConfig.v1Base}/wallets/transactions/${encodeURIComponent(walletUuid)}/csv${suffix}`
}

/**
 * Reads the CSV as it streams, reporting the bytes received so far. The
 * server streams 100 000 rows without a Content-Length, so progress is bytes,
 * not a percentage. `signal` cancels the download midway. The auth proxy in
 * front of fetch adds the raw token v1 expects.
 */
export async function downloadCsv(
  url: string,
  options: { signal?: AbortSignal; onProgress: (bytes: number) => void },
): Promise<Blob> {
  const response = await fetch(url, { signal: options.signal, headers: { Accept: 'text/csv' } })
  if (!response.ok) {
    const problem = (await response.json().catch(() => undefined)) as Problem | undefined
    throw new ApiError(response.status, problem)
  }
  const type = response.headers.get('content-type') ?? 'text/csv'
  if (!response.body) {
    const blob = await response.blob()
    options.onProgress(blob.size)
    return blob
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let received = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    received += value.byteLength
    options.onProgress(received)
  }
  return new Blob(chunks, { type })
}
