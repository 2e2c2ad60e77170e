import type { CardFormFactor, DeliveryAddress } from '../../../contract/cards.ts'
import { normaliseName } from '../../../contract/names.ts'
import type { MoneyTransaction } from '../ledger/money-command.ts'
import type { Owner } from '../owner.ts'
import type { CardDeps } from './card-deps.ts'
import { CARD_MONTHLY_FEE_JOB } from './card-fees.ts'
import * as repo from './repository.ts'
import { anniversary, expiryFor, generatePan, type LimitsMinor } from './rules.ts'

/** Draws of a new number before giving up: a clash in a 7-to-9-digit random space is rare. */
const PAN_ATTEMPTS = 8

/**
 * The card row (a PHYSICAL one INACTIVE, its delivery ORDERED and handed to
 * the shipping provider, if there is one), its `card.issued` event and, when its program charges
 * one, the monthly fee's job: in the issuing money command (issue-card.ts).
 */
export async function insertNewCard(
  deps: CardDeps,
  money: MoneyTransaction,
  owner: Owner,
  card: NewCardFacts,
  at: Date,
): Promise<void> {
  const { trx } = money
  const expiry = expiryFor(at)
  let inserted = false
  let last4 = ''
  for (let attempt = 0; attempt < PAN_ATTEMPTS && !inserted; attempt++) {
    const pan = generatePan(card.program.bin)
    last4 = pan.slice(-4)
    inserted = await repo.insertCard(trx, {
      id: card.id,
      tenantId: owner.tenantId,
      userId: owner.userId,
      walletId: card.walletId,
      fiatAccountId: card.fiatAccountId,
      programId: card.program.id,
      standAlone: card.standAlone,
      formFactor: card.formFactor,
      cardType: card.program.card_type,
      nickName: card.nickName ? normaliseName(card.nickName) : null,
      bin: card.program.bin,
      last4,
      panCiphertext: deps.crypto.encryptPan({ tenantId: owner.tenantId, cardId: card.id }, pan),
      panKeyId: deps.crypto.keyId,
      panFingerprint: deps.crypto.panFingerprint(pan),
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      limits: card.limits,
      status: card.delivery ? 'INACTIVE' : 'ACTIVE',
      delivery: card.delivery && { address: card.delivery, status: 'ORDERED' },
      at,
    })
  }
  if (!inserted) {
    throw new Error(`no free card number under BIN ${card.program.bin} after ${PAN_ATTEMPTS} draws`)
  }
  if (card.delivery && deps.settings.shipping) {
    await deps.settings.shipping.ship(trx, { tenantId: owner.tenantId, cardId: card.id }, at)
  }
  // A new card is money made movable, and a physical one goes to an address: told on every
  // channel whatever is muted, so a card ordered by someone else is seen before it arrives.
  await money.emit({
    userId: owner.userId,
    kind: 'card.issued',
    payload: {
      card_id: card.id,
      last4,
      form_factor: card.formFactor,
      delivery_to: card.delivery && `${card.delivery.city}, ${card.delivery.country}`,
    },
  })
  if (BigInt(card.program.fee_monthly_minor) > 0n) {
    await deps.settings.jobs.enqueue(trx, {
      kind: CARD_MONTHLY_FEE_JOB,
      tenantId: owner.tenantId,
      payload: { card_id: card.id },
      runAt: anniversary(at, 1),
    })
  }
}

/** What issuing a card writes, checked before its transaction. */
export interface NewCardFacts {
  id: string
  walletId: string
  fiatAccountId: string
  program: repo.ProgramForCard
  standAlone: boolean
  formFactor: CardFormFactor
  nickName: string | undefined
  limits: LimitsMinor
  delivery: DeliveryAddress | null
}
