/** A notification's payload, read by field name: one an older event lacks reads as nothing. */
export type Data = Record<string, unknown>

export const text = (data: Data, key: string) =>
  typeof data[key] === 'string' ? (data[key] as string) : ''

/** What one notification says: its title, what happened, the amount signed as the feed signs it. */
export interface Description {
  title: string
  detail: string
  amount?: string
  failed?: boolean
}
