import { type Card, type CardLimits, cardFinished } from '../../../contract/cards.ts'
import { AmountError, toMinor } from '../../../contract/money.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { Owner } from '../owner.ts'
import type { CardDeps } from './card-deps.ts'
import { type BodyFault, CardError } from './errors.ts'
import { getCard } from './read-cards.ts'
import * as repo from './repository.ts'
import { defaultLimits, type LimitsMinor, limitFaults, raisesAny } from './rules.ts'

/**
 * New limits, in the currency of the card's account; a closed card keeps its own.
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT, INVALID_LIMITS
 */
export async function setLimits(
  deps: CardDeps,
  owner: Owner,
  id: string,
  limits: CardLimits,
): Promise<Card> {
  const current = await repo.findCard(deps.db, owner, id)
  if (!current) throw new CardError({ kind: 'CARD_NOT_FOUND' })
  const minor = limitsOf(limits, current.decimals, '/body')
  await deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCard(trx, owner, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    if (cardFinished(card.status)) {
      throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
    }
    await repo.setLimits(trx, card.id, minor, deps.clock())
  })
  return getCard(deps, owner, id)
}

/**
 * Whether `limits` would let the owner's card spend more than it may now. A
 * card that is not theirs, or limits that do not parse, raise nothing: setLimits
 * answers those (404, 422) before anything changes.
 */
export async function raisesLimits(
  deps: CardDeps,
  owner: Owner,
  id: string,
  limits: CardLimits,
): Promise<boolean> {
  const card = await repo.findCard(deps.db, owner, id)
  if (!card) return false
  let next: LimitsMinor
  try {
    next = limitsOf(limits, card.decimals, '/body')
  } catch (error) {
    if (error instanceof CardError) return false
    throw error
  }
  const current = {
    per_transaction: BigInt(card.limit_per_transaction_minor),
    daily: BigInt(card.limit_daily_minor),
    monthly: BigInt(card.limit_monthly_minor),
  }
  return raisesAny(current, next)
}

/**
 * Renames the card, once per request_id: the same request again answers the
 * card as it is (`replayed`), without renaming it back over a later rename.
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT (closed), IDEMPOTENCY_CONFLICT
 */
export async function rename(
  deps: CardDeps,
  owner: Owner,
  id: string,
  request: { nickName: string; requestId: string },
): Promise<{ card: Card; replayed: boolean }> {
  const nickName = normaliseName(request.nickName)
  const replayed = await deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCard(trx, owner, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    const earlier = await repo.findRenameRequest(trx, card.id, request.requestId)
    if (earlier) {
      if (earlier.nick_name !== nickName) throw new CardError({ kind: 'IDEMPOTENCY_CONFLICT' })
      return true
    }
    if (cardFinished(card.status)) {
      throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
    }
    await repo.insertRenameRequest(trx, {
      cardId: card.id,
      requestId: request.requestId,
      nickName,
    })
    await repo.setNickName(trx, card.id, nickName, deps.clock())
    return false
  })
  return { card: await getCard(deps, owner, id), replayed }
}

/**
 * Limits in minor units of the account's currency, the issuer's defaults when
 * none are given. `at` is where the limits sit in the body.
 * @throws CardError INVALID_LIMITS naming every bad field
 */
export function limitsOf(
  limits: CardLimits | undefined,
  decimals: number,
  at = '/body/limits',
): LimitsMinor {
  if (!limits) return defaultLimits(decimals)
  const faults: BodyFault[] = []
  const minor = {} as LimitsMinor
  for (const field of ['per_transaction', 'daily', 'monthly'] as const) {
    try {
      minor[field] = toMinor(limits[field], decimals)
    } catch (error) {
      if (!(error instanceof AmountError)) throw error
      faults.push({ field: `${at}/${field}`, message: `At most ${decimals} decimal places.` })
      minor[field] = 1n
    }
  }
  if (faults.length === 0) {
    for (const fault of limitFaults(minor)) {
      faults.push({ field: `${at}/${fault.field}`, message: fault.message })
    }
  }
  if (faults.length > 0) throw new CardError({ kind: 'INVALID_LIMITS', faults })
  return minor
}
