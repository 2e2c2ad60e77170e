import type { Problem } from '../../contract/problem.ts'
import { ApiError } from './api.ts'

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
