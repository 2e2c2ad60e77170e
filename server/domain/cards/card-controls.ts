import type { CardControls } from '../../../contract/card-controls.ts'
import { cardFinished } from '../../../contract/cards.ts'
import { isKnownCountry } from '../location/countries.ts'
import type { Owner } from '../owner.ts'
import type { CardDeps } from './card-deps.ts'
import { keptControls, loosens, storedControls } from './controls-rules.ts'
import { CardError } from './errors.ts'
import * as repo from './repository.ts'

/**
 * The card's controls (issue 30): what the card network lets through
 * (card-transactions/controls.ts). A closed card keeps its own.
 * @throws CardError CARD_NOT_FOUND
 */
export async function getControls(deps: CardDeps, owner: Owner, id: string): Promise<CardControls> {
  const card = await repo.findCard(deps.db, owner, id)
  if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
  return storedControls(card.controls)
}

/**
 * Replaces the card's controls with `controls` as kept (controls-rules.ts:
 * lists without repeats, amounts in the account's decimals). Whether the
 * change needed the second look was asked before (loosensControls).
 * @throws CardError CARD_NOT_FOUND, CARD_STATUS_CONFLICT (finished), INVALID_CONTROLS
 */
export async function setControls(
  deps: CardDeps,
  owner: Owner,
  id: string,
  controls: CardControls,
): Promise<CardControls> {
  const current = await repo.findCard(deps.db, owner, id)
  if (!current) throw new CardError({ kind: 'CARD_NOT_FOUND' })
  const kept = keptControls(controls, current.decimals, isKnownCountry)
  if (!kept.ok) throw new CardError({ kind: 'INVALID_CONTROLS', faults: kept.faults })
  await deps.db.transaction().execute(async (trx) => {
    const card = await repo.lockCard(trx, owner, id)
    if (!card) throw new CardError({ kind: 'CARD_NOT_FOUND' })
    if (cardFinished(card.status)) {
      throw new CardError({ kind: 'CARD_STATUS_CONFLICT', status: card.status })
    }
    await repo.setControls(trx, card.id, kept.controls, deps.clock())
  })
  return kept.controls
}

/**
 * Whether `controls` would let the owner's card do anything it may not now
 * (controls-rules.ts loosens). A card that is not theirs, or controls that do
 * not hold, loosen nothing: setControls answers those (404, 422) before
 * anything changes.
 */
export async function loosensControls(
  deps: CardDeps,
  owner: Owner,
  id: string,
  controls: CardControls,
): Promise<boolean> {
  const card = await repo.findCard(deps.db, owner, id)
  if (!card) return false
  const kept = keptControls(controls, card.decimals, isKnownCountry)
  if (!kept.ok) return false
  return loosens(storedControls(card.controls), kept.controls, card.decimals)
}
