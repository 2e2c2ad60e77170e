import type { ActivityStatus, ActivityType } from '../../../contract/activity.ts'
import { ACTIVITY_TYPE_LIST } from './wording.ts'

/**
 * What the screen is narrowed to, as its address holds it
 * (`?q=&type=&currency=&wallet=&card=&card_last4=`). A card's "See all" opens
 * the screen on that card; its last four name the chip.
 */
export interface Narrowing {
  q?: string
  type?: ActivityType
  currency?: string
  wallet?: string
  card?: string
  card_last4?: string
  /** Issue 31: days ("2026-03-01"), both included; amounts (plain decimals); a status. */
  from?: string
  to?: string
  min?: string
  max?: string
  status?: ActivityStatus
}

export const isType = (value: string | null): value is ActivityType =>
  (ACTIVITY_TYPE_LIST as readonly (string | null)[]).includes(value)

export const STATUSES: ActivityStatus[] = [
  'pending',
  'complete',
  'failed',
  'declined',
  'canceled',
  'reversed',
  'refunded',
]
export const isStatus = (value: string | null): value is ActivityStatus =>
  (STATUSES as readonly (string | null)[]).includes(value)
const DAY = /^\d{4}-\d{2}-\d{2}$/
export const AMOUNT = /^\d{1,30}(\.\d{1,18})?$/
export const day = (value: string | null) => (value && DAY.test(value) ? value : undefined)
const amount = (value: string | null) => (value && AMOUNT.test(value) ? value : undefined)

/** A day's first local instant, or the next day's (`after`): what the API's `from`/`to` take. */
export function dayStart(value: string, after = false): string {
  const [year, month, date] = value.split('-').map(Number) as [number, number, number]
  return new Date(year, month - 1, date + (after ? 1 : 0)).toISOString()
}

/** The screen's narrowing read from its address: anything malformed is left out. */
export function readNarrowing(search: string): Narrowing {
  const params = new URLSearchParams(search)
  const type = params.get('type')
  return {
    q: params.get('q')?.trim() || undefined,
    type: isType(type) ? type : undefined,
    currency: params.get('currency') || undefined,
    wallet: params.get('wallet') || undefined,
    card: params.get('card') || undefined,
    card_last4: params.get('card_last4') || undefined,
    from: day(params.get('from')),
    to: day(params.get('to')),
    min: amount(params.get('min')),
    max: amount(params.get('max')),
    status: isStatus(params.get('status')) ? (params.get('status') as ActivityStatus) : undefined,
  }
}
