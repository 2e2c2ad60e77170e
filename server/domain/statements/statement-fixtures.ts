/**
 * What the statement tests share: a period around now, the JSON a statement is
 * rendered as, and a person whose card account has had money come and go.
 */
import type { FastifyInstance } from 'fastify'
import type { Merchant } from '../../../contract/card-transactions.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { bearer, headers } from '../../test-support.ts'
import { cardCalls, EUR_BALANCE, ok } from '../cards/card-test-support.ts'
import { statementCalls } from './statement-test-support.ts'

export const CAFE: Merchant = { name: 'Café Lisboa', mcc: '5814', city: 'Lisbon', country: 'PT' }
export const HOUR = 3_600_000

/** A period around now: what every statement test asks for unless it says otherwise. */
export const around = () => ({
  from: new Date(Date.now() - HOUR).toISOString(),
  to: new Date(Date.now() + HOUR).toISOString(),
})

export interface JsonStatement {
  code: string
  account: { title: string; details: Record<string, string> }
  holder: { name: string }
  currencies: {
    currency: string
    opening_balance: string
    money_in: string
    money_out: string
    closing_balance: string
    movements: { description: string; amount: string; balance: string }[]
  }[]
}

export function spenderOf(app: () => FastifyInstance) {
  const { person, onAccount } = cardCalls(app)
  const { sepaCredit, network } = statementCalls(app)

  /** A person with a euro balance account, a card on it, and money that came and went. */
  return async function spender() {
    const { token, wallet } = await person()
    const account = ok<FiatAccount>(
      await app().inject({
        method: 'POST',
        url: `/api/v2/fiat-accounts/${wallet.uuid}`,
        headers: headers(bearer(token)),
        payload: { program_id: EUR_BALANCE },
      }),
      201,
    )
    await sepaCredit(account, '100.00')
    // The card's issue fee (€5) comes from the account.
    const card = await onAccount(token, account.id)
    const paid = await network(card.id, {
      type: 'AUTHORIZATION',
      amount: '12.50',
      merchant: CAFE,
    })
    await network(card.id, { type: 'CLEARING', amount: '12.50', authorization_id: paid.id })
    await network(card.id, { type: 'REFUND', amount: '2.50', authorization_id: paid.id })
    // Held, then released: it never moved the account's money.
    const released = await network(card.id, {
      type: 'AUTHORIZATION',
      amount: '5.00',
      merchant: CAFE,
    })
    await network(card.id, { type: 'REVERSAL', amount: '5.00', authorization_id: released.id })
    return { token, wallet, account, card }
  }
}
