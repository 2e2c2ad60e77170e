import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ActivityDetail } from '../../../contract/activity.ts'
import type { CardDispute } from '../../../contract/card-disputes.ts'
import { aPage, aWallet } from '../../../tests/support/builders.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import ActivityDetailPage from './activity-detail-page.tsx'
import ActivityPage from './activity-page.tsx'

const ID = '0190b0a4-0000-7000-8000-00000000aa02'
const AUTHORIZATION = '0190b0a4-0000-7000-8000-00000000bb02'
const eur = (amount: string) => ({
  currency_uuid: '0190b0a4-0000-7000-8000-0000000000c2',
  currency: 'EUR',
  chain: null,
  decimals: 2,
  amount,
})

const payment: ActivityDetail = {
  id: ID,
  type: 'card_purchase',
  status: 'complete',
  direction: 'out',
  wallet_uuid: '0190b0a4-0000-7000-8000-0000000000a1',
  counter_wallet_uuid: null,
  card_id: '0190b0a4-0000-7000-8000-0000000000d1',
  card_last4: '4242',
  fiat_account_id: null,
  amount: eur('40.00'),
  fee: null,
  total: eur('40.00'),
  received: null,
  refunded: null,
  channel: 'online',
  dispute: null,
  rate: null,
  counterparty_name: null,
  merchant: { name: 'Streaming Plus', mcc: '4899', city: 'Dublin', country: 'IE' },
  address: null,
  reference: null,
  tx_hash: null,
  note: null,
  confirmations: null,
  required_confirmations: null,
  fee_kind: null,
  failure_code: null,
  source: { type: 'card_transaction', id: AUTHORIZATION, order_type: null },
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  timeline: [],
  records: [],
  card_transactions: [],
}

const opened = (body: { reason: string; details: string }): CardDispute => ({
  id: '0190b0a4-0000-7000-8000-00000000dd01',
  card_id: payment.card_id ?? '',
  card_last4: '4242',
  transaction_id: AUTHORIZATION,
  activity_id: ID,
  reason: body.reason as CardDispute['reason'],
  details: body.details,
  status: 'SUBMITTED',
  amount: '40.00',
  currency: 'EUR',
  merchant: payment.merchant,
  credit:
    body.reason === 'fraud' ? { amount: '40.00', provisional: true, at: payment.created_at } : null,
  created_at: payment.created_at,
  updated_at: payment.created_at,
})

const DISPUTE = `POST /issuing/transactions/${AUTHORIZATION}/dispute`

describe('disputing a card payment', () => {
  it('“Something wrong?” → what happened → in your words → sent; a fraud claim says the money is back', async () => {
    let item = payment
    const api = mockApi({
      [`GET /activity/${ID}`]: () => ({ body: item }),
      [DISPUTE]: (call) => {
        const dispute = opened(call.body as { reason: string; details: string })
        item = { ...payment, dispute: { id: dispute.id, status: 'SUBMITTED' } }
        return { status: 201, body: dispute }
      },
    })
    const { user } = renderApp(<ActivityDetailPage id={ID} />, { path: `/activity/${ID}` })
    const section = await screen.findByRole('region', { name: 'Something wrong?' })
    await user.click(within(section).getByRole('button', { name: 'Dispute this payment' }))
    await user.click(within(section).getByRole('button', { name: 'Next' }))
    expect(within(section).getByText('Choose what happened.')).toBeVisible()
    await user.click(within(section).getByRole('radio', { name: 'I didn’t make this payment' }))
    await user.click(within(section).getByRole('button', { name: 'Next' }))
    expect(within(section).getByText(/comes back to your card at once/)).toBeVisible()
    const details = within(section).getByRole('textbox', { name: 'Tell us what happened' })
    await user.click(within(section).getByRole('button', { name: 'Send dispute' }))
    expect(details).toHaveAccessibleDescription(/Tell us in a few words what happened\./)
    expect(api.to(DISPUTE)).toHaveLength(0)
    await user.type(details, '  I never bought this.  ')
    await user.click(within(section).getByRole('button', { name: 'Send dispute' }))
    expect(
      await screen.findByText(
        'Dispute sent. €40.00 is back on your card while the card network decides.',
      ),
    ).toBeVisible()
    expect(api.to(DISPUTE).map((call) => call.body)).toEqual([
      { reason: 'fraud', details: 'I never bought this.' },
    ])
    // The item read again shows where the dispute stands.
    const label = await screen.findByText('Dispute')
    expect(label.nextSibling).toHaveTextContent('Sent, waiting for the card network')
  })

  it('in Russian, a refusal is said and the form stays; Back keeps the reason', async () => {
    mockApi({
      [`GET /activity/${ID}`]: { body: payment },
      [DISPUTE]: problem(409, 'DISPUTE_EXISTS'),
    })
    const { user } = renderApp(<ActivityDetailPage id={ID} />, {
      path: `/activity/${ID}`,
      language: 'ru',
    })
    const section = await screen.findByRole('region', { name: 'Что-то не так?' })
    await user.click(within(section).getByRole('button', { name: 'Оспорить платёж' }))
    await user.click(within(section).getByRole('radio', { name: 'С меня списали дважды' }))
    await user.click(within(section).getByRole('button', { name: 'Далее' }))
    await user.click(within(section).getByRole('button', { name: 'Назад' }))
    expect(within(section).getByRole('radio', { name: 'С меня списали дважды' })).toBeChecked()
    await user.click(within(section).getByRole('button', { name: 'Далее' }))
    await user.type(within(section).getByRole('textbox'), 'Два списания')
    await user.click(within(section).getByRole('button', { name: 'Отправить спор' }))
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Вы уже оспорили этот платёж.',
    )
  })

  it('a payment disputed already shows its status, and offers no second dispute', async () => {
    mockApi({
      [`GET /activity/${ID}`]: {
        body: { ...payment, dispute: { id: 'x', status: 'WON' } },
      },
    })
    renderApp(<ActivityDetailPage id={ID} />, { path: `/activity/${ID}` })
    const label = await screen.findByText('Dispute')
    expect(label.nextSibling).toHaveTextContent('Won: the money is yours')
    expect(screen.queryByRole('region', { name: 'Something wrong?' })).toBeNull()
  })

  it('the feed’s row says where the dispute stands', async () => {
    mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /activity': {
        body: {
          data: [{ ...payment, dispute: { id: 'x', status: 'UNDER_REVIEW' } }],
          limit: 30,
          next_cursor: null,
        },
      },
    })
    renderApp(<ActivityPage />, { path: '/activity', language: 'ru' })
    const [row] = await screen.findAllByTestId('activity-row')
    expect(row).toHaveTextContent('Спор на рассмотрении')
  })
})
