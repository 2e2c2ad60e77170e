import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { anOrder, aPage, WALLET_UUID } from '../../../tests/support/builders.ts'
import { problem } from '../../../tests/support/mock-api.ts'
import {
  ACH,
  ANNA,
  afterSendTest,
  destination,
  eurQuote,
  renderSend,
  SEPA,
  TRON,
} from './send-fixture.tsx'

// Placing after the destination was edited or deleted since its price.

afterEach(afterSendTest)

describe('a destination changed or deleted since the price', () => {
  const sepaQuote = (id: string) => ({
    ...eurQuote,
    quote_id: id,
    target: {
      ...eurQuote.target,
      kind: 'counterparty' as const,
      counterparty_account_id: ANNA,
      counterparty_destination_id: SEPA.counterparty_destination_id,
      destination_type: 'SEPA' as const,
      display: 'Anna Schmidt · DE89 … 3000',
    },
  })

  async function toReview(user: ReturnType<typeof renderSend>['user']) {
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Account or address' })).toHaveDisplayValue(
        'Main account · DE89 … 3000',
      ),
    )
    await user.type(screen.getByRole('textbox', { name: 'You send (EUR)' }), '50')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Review' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Review' }))
    await screen.findByRole('heading', { name: 'Check and confirm' })
  }

  it('edited: says so, shows the new details at a new price, and confirms that one', async () => {
    let calcs = 0
    let posts = 0
    const edited = destination({
      label: 'Main account',
      iban: 'DE02120300000000202051',
      display: 'DE02 … 2051',
    })
    let current = SEPA
    const { api, user } = renderSend(
      `&counterparty=${ANNA}&destination=${SEPA.counterparty_destination_id}`,
      {
        [`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`]: () => ({
          body: aPage([current, TRON, ACH]),
        }),
        'GET /orders/calc': () => ({
          body: sepaQuote(`0190b0a4-0000-7000-8000-0000000001${String(calcs++).padStart(2, '0')}`),
        }),
        'POST /orders/WITHDRAWAL_FIAT_SEPA': () => {
          posts += 1
          if (posts === 1) {
            current = edited
            return problem(422, 'DESTINATION_CHANGED')
          }
          return { status: 201, body: anOrder({ order_type: 'WITHDRAWAL_FIAT_SEPA' }) }
        },
      },
    )
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(
      await screen.findByText(
        'The recipient’s details changed, so this is a new price. Check it and the details before you confirm.',
      ),
    ).toBeInTheDocument()
    expect(await screen.findByTestId('target-iban')).toHaveTextContent(
      'DE02 1203 0000 0000 2020 51',
    )
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    await screen.findByRole('heading', { name: 'Transfer placed' })
    const [first, second] = api
      .to('POST /orders/WITHDRAWAL_FIAT_SEPA')
      .map((call) => call.body as { quote_id: string; request_id: string })
    expect(second!.quote_id).not.toBe(first!.quote_id)
    expect(second!.request_id).not.toBe(first!.request_id)
  })

  it('deleted: sends the person to choose another recipient', async () => {
    let deleted = false
    const { user } = renderSend(
      `&counterparty=${ANNA}&destination=${SEPA.counterparty_destination_id}`,
      {
        [`GET /counterparties/${WALLET_UUID}/${ANNA}/destinations`]: () => ({
          body: aPage(deleted ? [TRON, ACH] : [SEPA, TRON, ACH]),
        }),
        'GET /orders/calc': { body: sepaQuote(eurQuote.quote_id) },
        'POST /orders/WITHDRAWAL_FIAT_SEPA': () => {
          deleted = true
          return problem(422, 'DESTINATION_NOT_FOUND')
        },
      },
    )
    await toReview(user)
    await user.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The recipient’s account or address was deleted after the price was set. Nothing was charged. Choose another recipient.',
    )
    await user.click(screen.getByRole('button', { name: 'Change the details' }))
    expect(
      await screen.findByText('This recipient has no account or address that can receive EUR.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Review' })).toBeDisabled()
  })
})
