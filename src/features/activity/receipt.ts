import { netConfig } from '../../net/config.ts'

/** An activity item's receipt, fetched with the session. */
export async function receiptFile(
  id: string,
  options: { language: string; timeZone: string },
): Promise<File> {
  const query = new URLSearchParams({ language: options.language, time_zone: options.timeZone })
  const response = await fetch(
    `${netConfig.v2Base}/activity/${encodeURIComponent(id)}/receipt?${query}`,
  )
  if (!response.ok) throw new Error(`receipt: ${response.status}`)
  const blob = await response.blob()
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1]
  return new File([blob], name ?? `receipt-${id}.pdf`, { type: 'application/pdf' })
}
