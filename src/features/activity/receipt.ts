import type { StatementLink } from '../../../contract/statements.ts'
import { api } from '../../net/api.ts'
import { netConfig } from '../../net/config.ts'

interface ReceiptOptions {
  language: string
  timeZone: string
}

const queryOf = (options: ReceiptOptions) =>
  new URLSearchParams({ language: options.language, time_zone: options.timeZone })

/** An activity item's receipt, fetched with the session. */
export async function receiptFile(id: string, options: ReceiptOptions): Promise<File> {
  const response = await fetch(
    `${netConfig.v2Base}/activity/${encodeURIComponent(id)}/receipt?${queryOf(options)}`,
  )
  if (!response.ok) throw new Error(`receipt: ${response.status}`)
  const blob = await response.blob()
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1]
  return new File([blob], name ?? `receipt-${id}.pdf`, { type: 'application/pdf' })
}

/** A link Telegram's downloadFile can fetch on its own (it sends no sign-in). */
export const receiptLink = (id: string, options: ReceiptOptions) =>
  api.v2.post<StatementLink>(`/activity/${encodeURIComponent(id)}/receipt/link?${queryOf(options)}`)
