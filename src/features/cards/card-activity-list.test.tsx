import { onlineManager } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { useI18n } from '../../i18n/i18n.tsx'
import { CsvButton } from '../../ui/csv-button.tsx'
import { CardActivityList } from './card-activity-list.tsx'
import { cardCsvUrl, cardTransactionsQuery } from './queries.ts'
import { aCardTransaction, CARD_ID } from './test-builders.ts'

const TX = 'GET /issuing/transactions/'

const page = (data: CardTransaction[], more: { offset?: number; last?: boolean } = {}) => ({
  body: { data, total: 99, limit: 20, offset: more.offset ?? 0, is_last_page: more.last ?? true },
})

/** A card's transactions with their export, as an account's page lists them. */
function CardTransactions() {
  const { t } = useI18n()
  return (
    <CardActivityList
      title={t('cards.tx.title')}
      query={cardTransactionsQuery(CARD_ID)}
      actions={<CsvButton url={cardCsvUrl(CARD_ID)} fileName="card-4242-transactions.csv" />}
    />
  )
}

function renderCard(transactions: Route, language: 'en' | 'ru' = 'en') {
  const api = mockApi({ [TX]: transactions })
  return { api, ...renderApp(<CardTransactions />, { language }) }
}

const list = async () => screen.findByRole('list', { name: 'Transactions' })
const rows = async () => within(await list()).getAllByTestId('card-tx-row')

const shop = { name: 'Corner Shop', mcc: '5411', city: 'Berlin', country: 'DE' }
const AUTH = 'a0000000-0000-7000-8000-000000000001'

afterEach(() => {
  act(() => onlineManager.setOnline(true))
})

describe('card transactions', () => {
  it('reads an authorisation and its clearing as one purchase, headlining the amount charged', async () => {
    const { api } = renderCard(
      page([
        aCardTransaction({
          id: 'f1',
          type: 'REFUND',
          status: 'SETTLED',
          amount: '5.00',
          authorization_id: AUTH,
          created_at: '2026-03-03T10:00:00Z',
        }),
        aCardTransaction({
          id: 'c1',
          type: 'CLEARING',
          status: 'SETTLED',
          amount: '20.00',
          authorization_id: AUTH,
          created_at: '2026-03-02T10:00:00Z',
        }),
        aCardTransaction({
          id: AUTH,
          status: 'SETTLED',
          amount: '25.00',
          merchant: shop,
          created_at: '2026-03-01T10:00:00Z',
        }),
      ]),
    )
    const [purchase, ...rest] = await rows()
    expect(rest).toHaveLength(0)
    expect(purchase).toHaveTextContent('Corner Shop')
    // What was taken is the headline; what the authorisation held is beside it.
    expect(purchase).toHaveTextContent('−€20.00')
    expect(purchase).not.toHaveTextContent('−€25.00')
    expect(purchase).toHaveTextContent('Completed · €25.00 authorised')
    expect(within(purchase!).getByRole('list', { name: 'Refunds' })).toHaveTextContent(
      'Refunded €5.00',
    )
    const query = api.to(TX)[0]?.query
    expect(query?.get('card_id')).toBe(CARD_ID)
    expect(query?.get('new_scheme')).toBe('true')
    expect(query?.get('offset')).toBe('0')
  })

  it('says why a payment was declined, naming the limit, and keeps fees and top-ups apart', async () => {
    renderCard(
      page([
        aCardTransaction({
          id: 'fee',
          type: 'FEE',
          fee_kind: 'MONTHLY',
          status: 'SETTLED',
          amount: '1.00',
          merchant: null,
          created_at: '2026-03-04T10:00:00Z',
        }),
        aCardTransaction({
          id: 'declined',
          status: 'DECLINED',
          decline_reason: 'LIMIT_EXCEEDED',
          exceeded_limit: 'daily',
          created_at: '2026-03-03T10:00:00Z',
        }),
        aCardTransaction({
          id: 'frozen',
          status: 'DECLINED',
          decline_reason: 'CARD_FROZEN',
          created_at: '2026-03-02T12:00:00Z',
        }),
        aCardTransaction({
          id: 'reversed',
          status: 'REVERSED',
          created_at: '2026-03-02T11:00:00Z',
        }),
        aCardTransaction({
          id: 'deposit',
          type: 'DEPOSIT',
          status: 'SETTLED',
          amount: '100.00',
          card_id: null,
          card_last4: null,
          merchant: null,
          created_at: '2026-03-01T10:00:00Z',
        }),
      ]),
    )
    const [fee, declined, frozen, reversed, deposit] = await rows()
    expect(fee).toHaveTextContent('Monthly card fee')
    expect(fee).toHaveTextContent('−€1.00')
    expect(declined).toHaveTextContent('Declined: over the daily limit')
    expect(frozen).toHaveTextContent('Declined: the card was frozen')
    expect(reversed).toHaveTextContent('Reversed · nothing charged')
    expect(deposit).toHaveTextContent('Top-up')
    expect(deposit).toHaveTextContent('+€100.00')
  })

  it('says when a payment was not confirmed with the card’s one-time code (3-D Secure)', async () => {
    renderCard(page([aCardTransaction({ status: 'DECLINED', decline_reason: 'THREE_DS_FAILED' })]))
    const [declined] = await rows()
    expect(declined).toHaveTextContent('Declined: not confirmed with the card’s one-time code')
  })

  it('shows a declined fee or top-up as void: struck through, no sign, declined in words', async () => {
    renderCard(
      page([
        aCardTransaction({
          id: 'fee',
          type: 'FEE',
          fee_kind: 'MONTHLY',
          status: 'DECLINED',
          decline_reason: 'INSUFFICIENT_FUNDS',
          amount: '1.00',
          merchant: null,
          created_at: '2026-03-02T10:00:00Z',
        }),
        aCardTransaction({
          id: 'deposit',
          type: 'DEPOSIT',
          status: 'DECLINED',
          amount: '50.00',
          card_id: null,
          card_last4: null,
          merchant: null,
          created_at: '2026-03-01T10:00:00Z',
        }),
      ]),
    )
    const [fee, deposit] = await rows()
    expect(fee).toHaveTextContent('Monthly card fee')
    expect(fee).toHaveTextContent('Declined: not enough money on the account')
    expect(fee).not.toHaveTextContent('−')
    expect(within(fee!).getByText('€1.00')).toHaveClass('card-tx-void')
    expect(deposit).toHaveTextContent('Declined')
    expect(deposit).not.toHaveTextContent('+')
    expect(within(deposit!).getByText('€50.00')).toHaveClass('card-tx-void')
  })

  it('loads older pages on request, and a clearing finds its authorisation there', async () => {
    const { api, user } = renderCard((call) =>
      call.query.get('offset') === '0'
        ? page(
            [
              aCardTransaction({
                id: 'c1',
                type: 'CLEARING',
                status: 'SETTLED',
                authorization_id: AUTH,
                created_at: '2026-03-02T10:00:00Z',
              }),
            ],
            { last: false },
          )
        : page(
            [
              aCardTransaction({ id: AUTH, status: 'SETTLED', created_at: '2026-03-01T10:00:00Z' }),
              aCardTransaction({
                id: 'older',
                type: 'DEPOSIT',
                status: 'SETTLED',
                created_at: '2026-02-01T10:00:00Z',
              }),
            ],
            { offset: 1 },
          ),
    )
    expect(await rows()).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Show older transactions' }))
    await waitFor(async () => expect(await rows()).toHaveLength(2))
    expect(api.to(TX)[1]?.query.get('offset')).toBe('1')
    const [purchase, deposit] = await rows()
    expect(purchase).toHaveTextContent('Completed')
    expect(deposit).toHaveTextContent('Top-up')
    expect(screen.queryByRole('button', { name: 'Show older transactions' })).toBeNull()
  })

  it('says so when there are none', async () => {
    renderCard(page([]))
    expect(await screen.findByText('No transactions yet.')).toBeVisible()
  })

  it('shows a skeleton while the first page loads', async () => {
    let answer!: (reply: ReturnType<typeof page>) => void
    renderCard(() => new Promise((resolve) => (answer = resolve)))
    expect(await screen.findByTestId('card-tx-skeleton')).toBeInTheDocument()
    expect(screen.getByText('Loading transactions…')).toBeInTheDocument()
    act(() => answer(page([aCardTransaction()])))
    expect(await rows()).toHaveLength(1)
    expect(screen.queryByTestId('card-tx-skeleton')).toBeNull()
  })

  it('says what failed and tries again on request', async () => {
    let calls = 0
    const { user } = renderCard(() => {
      calls += 1
      return calls === 1 ? problem(500, 'INTERNAL') : page([aCardTransaction()])
    })
    const section = (await screen.findByRole('heading', { name: 'Transactions' })).closest(
      'section',
    )!
    expect(await within(section).findByRole('alert')).toHaveTextContent('Something went wrong')
    await user.click(within(section).getByRole('button', { name: 'Try again' }))
    expect(await rows()).toHaveLength(1)
  })

  it('keeps the loaded list readable offline; only loading more waits for a connection', async () => {
    renderCard(page([aCardTransaction()], { last: false }))
    expect(await rows()).toHaveLength(1)
    act(() => onlineManager.setOnline(false))
    expect(await rows()).toHaveLength(1)
    const more = screen.getByRole('button', { name: 'Show older transactions' })
    expect(more).toBeDisabled()
    expect(more).toHaveAccessibleDescription('You are offline. This needs a connection.')
  })

  it('speaks Russian', async () => {
    renderCard(
      page([
        aCardTransaction({
          status: 'DECLINED',
          decline_reason: 'LIMIT_EXCEEDED',
          exceeded_limit: 'monthly',
        }),
      ]),
      'ru',
    )
    const list = await screen.findByRole('list', { name: 'Операции' })
    expect(list).toHaveTextContent('Отклонена: превышен месячный лимит')
  })
})

describe('card transactions: CSV export', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:card-csv', revokeObjectURL() {} }),
    )
    vi.spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => {})
      .mockClear()
  })

  /** The CSV answers when the test says; everything else goes to the mock API. */
  function holdCsv(api: ReturnType<typeof mockApi>, reply: () => Response) {
    const requests: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input)
      if (!url.includes('/csv')) return api.fetch(input, init)
      requests.push(url)
      await gate
      return reply()
    })
    return { requests, release }
  }

  it('downloads through the API base, cancellable while it runs, then saves the file', async () => {
    const { api, user } = renderCard(page([]))
    const csv = holdCsv(
      api,
      () => new Response('id,created_at\r\n', { headers: { 'content-type': 'text/csv' } }),
    )
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }))
    expect(await screen.findByRole('button', { name: 'Cancel download' })).toBeInTheDocument()
    // The button shows as the download starts; the request itself may leave a moment later.
    await waitFor(() =>
      expect(csv.requests).toEqual([`/api/v1/issuing/transactions/csv?card_id=${CARD_ID}`]),
    )
    act(() => csv.release())
    expect(await screen.findByText(/^Downloaded /)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Save the file again' })).toHaveAttribute(
      'download',
      'card-4242-transactions.csv',
    )
    expect(HTMLAnchorElement.prototype.click).toHaveBeenCalled()
  })

  it('says what went wrong when the export fails', async () => {
    const { api, user } = renderCard(page([]))
    const csv = holdCsv(
      api,
      () =>
        new Response(JSON.stringify(problem(404, 'CARD_NOT_FOUND').body), {
          status: 404,
          headers: { 'content-type': 'application/problem+json' },
        }),
    )
    csv.release()
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The download failed. Try again.')
    expect(HTMLAnchorElement.prototype.click).not.toHaveBeenCalled()
  })
})
