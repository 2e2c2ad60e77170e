import { type OrderKind, shortAddress } from '../../../contract/display-rules.ts'
import { formatAmount } from '../format-amount.ts'
import { type Data, type Language, line, text, type Words } from './message-words.ts'

/** "To Anna Schmidt", "Exchange USDT → BTC", "Top-up of card ·· 3044": the feed's title of an order. */
export function orderTitle(words: Words, kind: OrderKind | undefined, data: Data): string {
  const who = text(data, 'counterparty_name')
  switch (kind) {
    case 'exchange':
      return words.exchange(text(data, 'from_currency'), text(data, 'to_currency'))
    case 'deposit':
      return who ? words.from(who) : words.bankIn
    case 'topUp': {
      const last4 = text(data, 'card_last4')
      return last4 ? words.topUpOf(last4) : words.topUp
    }
    case 'send':
    case undefined: {
      const address = text(data, 'address')
      if (who) return words.to(who)
      if (address) return words.to(shortAddress(address))
      return words.sent(text(data, 'from_currency'))
    }
  }
}

/** What an order did, with its amount signed as the feed signs it. */
export function orderLine(
  words: Words,
  language: Language,
  kind: OrderKind | undefined,
  data: Data,
) {
  const money = (key: string, currency: string, sign?: 'in' | 'out') =>
    formatAmount(language, text(data, key), text(data, currency), sign)
  // What left the person: the amount with its fee (older events carry no total).
  const paid = (sign?: 'out') =>
    text(data, 'total_amount')
      ? money('total_amount', 'from_currency', sign)
      : money('from_amount', 'from_currency', sign)
  switch (kind) {
    case 'exchange':
      return line(money('to_amount', 'to_currency', 'in'), words.exchangedFor(paid()))
    case 'deposit':
      return line(money('to_amount', 'to_currency', 'in'), words.arrived)
    case 'topUp': {
      const fee = /[1-9]/.test(text(data, 'fee_amount')) ? money('fee_amount', 'from_currency') : ''
      return line(
        paid('out'),
        words.toCard(money('to_amount', 'to_currency')),
        fee && words.fee(fee),
      )
    }
    case 'send':
    case undefined:
      return line(paid('out'), words.sentLine)
  }
}
