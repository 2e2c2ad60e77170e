/**
 * Card controls, the pure part (issue 30): what a stored set means, how a
 * set someone sends is checked and kept, and whether a change loosens
 * security — the question of the second look. No IO here.
 */
import {
  CARD_CHANNELS,
  type CardControls,
  type CategoryLimit,
  defaultControls,
} from '../../../contract/card-controls.ts'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { BodyFault } from './errors.ts'

/** The controls a card row holds: its own, or the defaults when never set. */
export const storedControls = (stored: CardControls | null): CardControls =>
  stored ?? defaultControls()

/**
 * How a merchant's name is compared: normalised like every name people give
 * (contract/names.ts), case folded — "STREAMING  plus" is "Streaming Plus".
 */
export const merchantKey = (name: string) =>
  normaliseName(name).replace(/\s+/gu, ' ').toLocaleLowerCase('en')

/** The amount of a category limit in minor units; the controls were checked when kept. */
export const limitMinor = (limit: CategoryLimit, decimals: number) =>
  toMinor(limit.amount, decimals)

const sameLimit = (a: CategoryLimit, b: CategoryLimit) =>
  a.category === b.category && a.interval === b.interval

/**
 * The set as it is kept: each list without repeats, in the order given;
 * merchants normalised; amounts in the account's decimals. Or every fault,
 * each naming its field under `at`.
 */
export function keptControls(
  controls: CardControls,
  decimals: number,
  isKnownCountry: (code: string) => boolean,
  at = '/body',
): { ok: true; controls: CardControls } | { ok: false; faults: BodyFault[] } {
  const faults: BodyFault[] = []
  const countries = (list: readonly string[], field: string) => {
    list.forEach((code, index) => {
      if (!isKnownCountry(code)) {
        faults.push({
          field: `${at}/${field}/${index}`,
          message: `${code} is not a known country.`,
        })
      }
    })
    return [...new Set(list)]
  }
  const blockedCountries = countries(controls.blocked_countries, 'blocked_countries')
  const allowedCountries =
    controls.allowed_countries === null
      ? null
      : countries(controls.allowed_countries, 'allowed_countries')

  const merchants: string[] = []
  controls.blocked_merchants.forEach((name, index) => {
    const kept = normaliseName(name)
    if (kept === '') {
      faults.push({
        field: `${at}/blocked_merchants/${index}`,
        message: 'Give the merchant’s name.',
      })
    } else if (!merchants.some((other) => merchantKey(other) === merchantKey(kept))) {
      merchants.push(kept)
    }
  })

  const limits: CategoryLimit[] = []
  controls.category_limits.forEach((limit, index) => {
    const field = `${at}/category_limits/${index}`
    if (limits.some((other) => sameLimit(other, limit))) {
      faults.push({
        field,
        message: `${limit.category} has a ${limit.interval} limit already: one per category and interval.`,
      })
      return
    }
    let minor: bigint
    try {
      minor = toMinor(limit.amount, decimals)
    } catch (error) {
      if (!(error instanceof AmountError)) throw error
      faults.push({ field: `${field}/amount`, message: `At most ${decimals} decimal places.` })
      return
    }
    if (minor <= 0n) {
      faults.push({ field: `${field}/amount`, message: 'Must be more than 0.' })
      return
    }
    limits.push({ ...limit, amount: fromMinor(minor, decimals) })
  })

  if (faults.length > 0) return { ok: false, faults }
  return {
    ok: true,
    controls: {
      channels: { ...controls.channels },
      blocked_categories: [...new Set(controls.blocked_categories)],
      blocked_countries: blockedCountries,
      allowed_countries: allowedCountries,
      blocked_merchants: merchants,
      category_limits: limits,
    },
  }
}

/**
 * Whether `next` lets the card do anything `current` refuses: a channel
 * turned on; a category, country or merchant no longer blocked; the allowed
 * countries widened (or no longer a list); a category limit raised or gone.
 * Tightening — and leaving things as they are — never loosens. Both sets as
 * kept (keptControls), in the account's decimals.
 */
export function loosens(current: CardControls, next: CardControls, decimals: number): boolean {
  if (CARD_CHANNELS.some((channel) => next.channels[channel] && !current.channels[channel])) {
    return true
  }
  const dropped = <T>(before: readonly T[], after: readonly T[]) =>
    before.some((each) => !after.includes(each))
  if (dropped(current.blocked_categories, next.blocked_categories)) return true
  if (dropped(current.blocked_countries, next.blocked_countries)) return true
  if (
    dropped(current.blocked_merchants.map(merchantKey), next.blocked_merchants.map(merchantKey))
  ) {
    return true
  }
  if (current.allowed_countries !== null) {
    if (next.allowed_countries === null) return true
    if (dropped(next.allowed_countries, current.allowed_countries)) return true
  }
  return current.category_limits.some((limit) => {
    const after = next.category_limits.find((other) => sameLimit(other, limit))
    return !after || limitMinor(after, decimals) > limitMinor(limit, decimals)
  })
}
