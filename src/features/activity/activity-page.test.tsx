import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type {
  ActivityDetail,
  ActivityItem,
  ActivityPage as Page,
} from '../../../contract/activity.ts'
import type { MoneySide } from '../../../contract/orders.ts'
import { aBalance, aPage, aWallet } from '../../../tests/support/builders.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import ActivityDetailPage from './activity-detail-page.tsx'
import ActivityPage from './activity-page.tsx'

const side = (currency: string, amount: string, chain: MoneySide['chain']): MoneySide => ({
  currency_uuid: '0190b0a4-0000-7000-8000-0000000000c2',
  currency,
  chain,
  decimals: chain === null ? 2 : 8,
  amount,
})

const exchange = {
  id: '0190b0a4-0000-7000-8000-00000000aa01',
  type: 'exchange',
  status: 'complete',
  direction: 'own',
  wallet_uuid: '0190b0a4-0000-7000-8000-0000000000a1',
  counter_wallet_uuid: null,
  card_id: null,
  card_last4: null,
  fiat_account_id: null,
  amount: side('USDT', '100', 'tron'),
  fee: side('USDT', '0.1', 'tron'),
  total: side('USDT', '100.1', 'tron'),
  received: side('BTC', '0.00101885', 'bitcoin'),
  refunded: null,
  channel: null,
  dispute: null,
  rate: '0.00001018854339',
  counterparty_name: null,
  merchant: null,
  address: null,
  reference: null,
  tx_hash: null,
  note: null,
  confirmations: null,
  required_confirmations: null,
  fee_kind: null,
  failure_code: null,
  source: { type: 'order', id: '0190b0a4-0000-7000-8000-00000000bb01', order_type: null },
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
} satisfies ActivityItem

const purchase: ActivityItem = {
  ...exchange,
  id: '0190b0a4-0000-7000-8000-00000000aa02',
  type: 'card_purchase',
  direction: 'out',
  amount: side('EUR', '12.99', null),
  fee: null,
  total: side('EUR', '12.99', null),
  received: null,
  rate: null,
  card_last4: '4242',
  merchant: { name: 'Netflix', mcc: '4899', city: 'Amsterdam', country: 'NL' },
  created_at: '2025-03-02T10:00:00Z',
}

const page = (data: ActivityItem[]): Page => ({ data, limit: 30, next_cursor: null })

function renderActivity(search = '') {
  const api = mockApi({
    'GET /wallets': {
      body: aPage([aWallet({ balances: [aBalance({ currency: 'USDT', available: '5' })] })]),
    },
    'GET /activity': (call) => ({
      body: page(
        call.query.get('q') === 'netflix' || call.query.get('type') === 'card_purchase'
          ? [purchase]
          : [exchange, purchase],
      ),
    }),
    'GET /rates': { body: { base: 'EUR', rates: [], updated_at: new Date().toISOString() } },
  })
  return { api, ...renderApp(<ActivityPage />, { path: `/activity${search}` }) }
}

describe('the Activity tab', () => {
  it('shows each thing that happened as one row in words, by day', async () => {
    renderActivity()
    const rows = await screen.findAllByTestId('activity-row')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('Exchange USDT → BTC')
    expect(rows[0]).toHaveTextContent(/\+0\.00101885\sBTC/)
    expect(rows[0]).toHaveTextContent(/−100\.1\sUSDT/)
    expect(rows[1]).toHaveTextContent('Netflix')
    expect(rows[1]).toHaveTextContent('−€12.99')
    expect(rows[0]).toHaveAttribute('href', `/activity/${exchange.id}`)
    expect(screen.getByRole('heading', { name: 'Today' })).toBeVisible()
    expect(screen.getByRole('heading', { name: 'March 2, 2025' })).toBeVisible()
  })

  it('searches once typing settles, with the words in the address', async () => {
    const { api, user, history } = renderActivity()
    await screen.findAllByTestId('activity-row')
    await user.type(screen.getByRole('searchbox', { name: 'Search your activity' }), 'netflix')
    await waitFor(() =>
      expect(api.to('GET /activity').some((call) => call.query.get('q') === 'netflix')).toBe(true),
    )
    // One request for the word, not one per key.
    expect(api.to('GET /activity').filter((call) => call.query.get('q'))).toHaveLength(1)
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(1))
    expect(history.at(-1)).toBe('/activity?q=netflix')
  })

  it('filters by type in a sheet, and the chosen filter shows as a chip that removes it', async () => {
    const { api, user } = renderActivity()
    await screen.findAllByTestId('activity-row')
    await user.click(screen.getByRole('button', { name: 'Filters' }))
    const sheet = await screen.findByRole('dialog', { name: 'Filters' })
    await user.click(within(sheet).getByRole('radio', { name: 'Card payment' }))
    await waitFor(() =>
      expect(api.to('GET /activity').at(-1)?.query.get('type')).toBe('card_purchase'),
    )
    await user.click(within(sheet).getByRole('button', { name: 'Show results' }))
    const chip = await screen.findByRole('button', { name: 'Remove the filter Card payment' })
    await user.click(chip)
    await waitFor(() => expect(api.to('GET /activity').at(-1)?.query.get('type')).toBeNull())
  })

  it('a card’s “See all” opens the feed on that card, not its wallet, named by its last four', async () => {
    const card = '0190b0a4-0000-7000-8000-0000000000c1'
    const { api, user, history } = renderActivity(`?card=${card}&card_last4=4242`)
    await screen.findAllByTestId('activity-row')
    const asked = api.to('GET /activity').at(-1)!.query
    expect(asked.get('card_id')).toBe(card)
    expect(asked.get('wallet_uuid')).toBeNull()
    expect(screen.getByRole('button', { name: 'Filters · 1' })).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Remove the filter Card ·· 4242' }))
    await waitFor(() => expect(api.to('GET /activity').at(-1)?.query.get('card_id')).toBeNull())
    expect(history.at(-1)).toBe('/activity')
  })

  it('dates, amounts and a status from the address go to the API as its own filters, each a chip', async () => {
    const { api, user, history } = renderActivity(
      '?status=declined&from=2025-03-01&to=2025-03-05&min=10&max=20.5',
    )
    await screen.findAllByTestId('activity-row')
    const asked = api.to('GET /activity').at(-1)!.query
    expect(asked.get('status')).toBe('declined')
    expect(asked.get('from')).toBe(new Date(2025, 2, 1).toISOString())
    expect(asked.get('to')).toBe(new Date(2025, 2, 6).toISOString())
    expect(asked.get('min')).toBe('10')
    expect(asked.get('max')).toBe('20.5')
    expect(screen.getByRole('button', { name: 'Filters · 3' })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Remove the filter Declined' })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Remove the filter Mar 1 – Mar 5' })).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Remove the filter from 10 · up to 20.5' }))
    await waitFor(() => expect(api.to('GET /activity').at(-1)?.query.get('min')).toBeNull())
    expect(history.at(-1)).toBe('/activity?from=2025-03-01&to=2025-03-05&status=declined')
  })

  it('an amount bound is sent once the field is left, and one that is not a number says so', async () => {
    const { api, user } = renderActivity()
    await screen.findAllByTestId('activity-row')
    await user.click(screen.getByRole('button', { name: 'Filters' }))
    const sheet = await screen.findByRole('dialog', { name: 'Filters' })
    const least = within(sheet).getByRole('textbox', { name: 'At least' })
    await user.type(least, '12,5')
    await user.tab()
    await waitFor(() => expect(api.to('GET /activity').at(-1)?.query.get('min')).toBe('12.5'))
    await user.clear(least)
    await user.type(least, 'ten')
    await user.tab()
    expect(within(sheet).getByText('Type a number, such as 12.50.')).toBeVisible()
    expect(api.to('GET /activity').at(-1)?.query.get('min')).toBe('12.5')
  })

  it('offers a way out when nothing matches', async () => {
    mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /activity': { body: page([]) },
    })
    const { user } = renderApp(<ActivityPage />, { path: '/activity?q=nothing' })
    expect(
      await screen.findByText('Nothing matches. Try other words or fewer filters.'),
    ).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Clear search and filters' }))
    await waitFor(() => expect(screen.getByRole('searchbox')).toHaveValue(''))
  })
})

describe('a payment’s note', () => {
  const rent: ActivityItem = {
    ...exchange,
    id: '0190b0a4-0000-7000-8000-00000000aa03',
    type: 'send',
    direction: 'out',
    amount: side('EUR', '800', null),
    fee: null,
    total: side('EUR', '800', null),
    received: null,
    rate: null,
    counterparty_name: 'Anna Schmidt',
    note: 'Rent for May',
  }

  it('shows on the row, beside its time', async () => {
    mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /activity': { body: page([rent]) },
    })
    renderApp(<ActivityPage />, { path: '/activity' })
    const [row] = await screen.findAllByTestId('activity-row')
    expect(row).toHaveTextContent('To Anna Schmidt')
    expect(row).toHaveTextContent(/\d:\d\d\s?(AM|PM)? · Rent for May/)
  })

  it('shows on the detail, named', async () => {
    const detail: ActivityDetail = { ...rent, timeline: [], records: [], card_transactions: [] }
    mockApi({ [`GET /activity/${rent.id}`]: { body: detail } })
    renderApp(<ActivityDetailPage id={rent.id} />, { path: `/activity/${rent.id}` })
    const label = await screen.findByText('Note')
    expect(label.nextSibling).toHaveTextContent('Rent for May')
  })
})

describe('a payment to a person', () => {
  it('that nobody claimed says so on its detail, and where the money is', async () => {
    const returned: ActivityDetail = {
      ...exchange,
      id: '0190b0a4-0000-7000-8000-00000000aa09',
      type: 'send',
      status: 'failed',
      direction: 'out',
      amount: side('EUR', '20', null),
      fee: null,
      total: side('EUR', '20', null),
      received: null,
      rate: null,
      counterparty_name: 'anna@example.com',
      failure_code: 'NOT_CLAIMED',
      source: { type: 'transfer', id: '0190b0a4-0000-7000-8000-00000000bb09', order_type: null },
      timeline: [],
      records: [],
      card_transactions: [],
    }
    mockApi({ [`GET /activity/${returned.id}`]: { body: returned } })
    renderApp(<ActivityDetailPage id={returned.id} />, { path: `/activity/${returned.id}` })
    expect(
      await screen.findByText(
        'Nobody signed up with this contact within 7 days: the money is back in your wallet.',
      ),
    ).toBeInTheDocument()
  })
})

describe('a card top-up', () => {
  const topUp: ActivityItem = {
    ...exchange,
    id: '0190b0a4-0000-7000-8000-00000000aa04',
    type: 'card_top_up',
    card_last4: '3044',
    amount: side('EUR', '200', null),
    fee: side('EUR', '2', null),
    total: side('EUR', '202', null),
    received: side('EUR', '200', null),
    rate: null,
  }

  it('is one movement on its row: what the person gave, what the card got, the fee named', async () => {
    mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /activity': { body: page([topUp]) },
    })
    renderApp(<ActivityPage />, { path: '/activity' })
    const [row] = await screen.findAllByTestId('activity-row')
    expect(row).toHaveTextContent('Top-up of card ·· 3044')
    expect(row).toHaveTextContent('−€202.00')
    expect(row).toHaveTextContent('€200.00 to the card')
    expect(row).toHaveTextContent('€2.00 fee')
    expect(row).not.toHaveTextContent('+€200.00')
  })

  it('says on its detail what was given, the fee and what the card got', async () => {
    const detail: ActivityDetail = { ...topUp, timeline: [], records: [], card_transactions: [] }
    mockApi({ [`GET /activity/${topUp.id}`]: { body: detail } })
    renderApp(<ActivityDetailPage id={topUp.id} />, { path: `/activity/${topUp.id}` })
    const value = async (label: string) => (await screen.findByText(label)).nextSibling
    expect(await value('You gave')).toHaveTextContent('€202.00')
    expect(await value('Fee')).toHaveTextContent('€2.00')
    expect(await value('The card got')).toHaveTextContent('€200.00')
    expect(screen.getByTestId('activity-amount')).toHaveTextContent('−€202.00')
    expect(screen.queryByText('You got')).toBeNull()
  })
})
