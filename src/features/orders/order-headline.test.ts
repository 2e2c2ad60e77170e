import { beforeAll, describe, expect, it } from 'vitest'
import type { OrderStatus, OrderType } from '../../../contract/orders.ts'
import { loadLanguage, type Translate, translator } from '../../i18n/i18n.tsx'
import { ORDER_STATUSES, ORDER_TYPES, orderHeadline } from './labels.ts'

const en = translator('en')
let ru: Translate = translator('ru')
beforeAll(async () => {
  await loadLanguage('ru')
  ru = translator('ru')
})

type Row = Record<OrderStatus, string>
const failed = { FAILED: 'The order did not go through', ERROR: 'The order did not go through' }
const canceled = { CANCELED: 'The order is canceled' }
const send: Row = {
  NEW: 'Transfer placed',
  PENDING: 'Your transfer is on its way',
  COMPLETE: 'Transfer sent',
  ...failed,
  ...canceled,
}
const deposit: Row = {
  NEW: 'Now send your bank transfer',
  PENDING: 'Now send your bank transfer',
  COMPLETE: 'Your deposit arrived',
  ...failed,
  ...canceled,
}
const topUp: Row = {
  NEW: 'Top-up placed',
  PENDING: 'Your card is being topped up',
  COMPLETE: 'Card topped up',
  ...failed,
  ...canceled,
}
/** Every order type in every status: what its page says first. */
const HEADLINES: Record<OrderType, Row> = {
  DEPOSIT_FIAT_SEPA: deposit,
  DEPOSIT_FIAT_SWIFT: deposit,
  WITHDRAWAL_FIAT_SEPA: send,
  WITHDRAWAL_CRYPTO: send,
  EXCHANGE_CRYPTO_INTERNAL: {
    NEW: 'Exchange placed',
    PENDING: 'Your exchange is under way',
    COMPLETE: 'Exchange done',
    ...failed,
    ...canceled,
  },
  TRANSFER_CARD_PREPAID: topUp,
  TRANSFER_CARD_SUBACCOUNT: topUp,
  TRANSFER_CARD_WHOLESALE: topUp,
}

const cases = ORDER_TYPES.flatMap((type) =>
  ORDER_STATUSES.map((status) => [type, status, HEADLINES[type][status]] as const),
)

describe('an order’s headline', () => {
  it.each(cases)('of %s in %s reads “%s”', (type, status, headline) => {
    expect(en(orderHeadline(type, status))).toBe(headline)
  })

  it('asks for the bank transfer only while a deposit waits for it, in every language', () => {
    for (const [type, status] of cases) {
      const waiting =
        (type === 'DEPOSIT_FIAT_SEPA' || type === 'DEPOSIT_FIAT_SWIFT') &&
        (status === 'NEW' || status === 'PENDING')
      expect(en(orderHeadline(type, status)).includes('send your bank transfer')).toBe(waiting)
      expect(ru(orderHeadline(type, status)).includes('отправьте банковский перевод')).toBe(waiting)
    }
  })
})
