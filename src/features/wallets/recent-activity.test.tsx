import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { aTransaction, aWallet } from '../../../tests/support/builders.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { RecentActivity } from './recent-activity.tsx'

const PERSONAL = '0190b0a4-0000-7000-8000-0000000000a1'
const TRADING = '0190b0a4-0000-7000-8000-0000000000a2'

const page = (data: unknown[]) => ({
  body: { data, total: data.length, limit: 10, offset: 0, is_last_page: true },
})

/** `count` transactions of one wallet, one a day from `firstDay`, newest first as the API answers. */
const days = (wallet: string, firstDay: number, count: number, currency = 'ETH') =>
  Array.from({ length: count }, (_, i): WalletTransaction => {
    const day = String(firstDay + count - 1 - i).padStart(2, '0')
    return aTransaction({
      uuid: `0190b0a4-0000-7000-8000-${wallet.slice(-2)}00000000${day}`,
      wallet_uuid: wallet,
      currency,
      amount: `${day}.5`,
      created_at: `2026-03-${day}T12:00:00Z`,
    })
  })

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('recent activity on the home screen', () => {
  it('shows the five newest transactions across every wallet, newest first', async () => {
    mockApi({
      'GET /wallets': page([aWallet({ uuid: PERSONAL }), aWallet({ uuid: TRADING })]),
      'GET /currencies': page([]),
      [`GET /wallets/${PERSONAL}/transactions`]: page(days(PERSONAL, 1, 5)),
      [`GET /wallets/${TRADING}/transactions`]: page(days(TRADING, 4, 5)),
    })
    renderApp(<RecentActivity />)
    const rows = await screen.findAllByTestId('recent-row')
    // Days 8, 7, 6 of the trading wallet, then day 5 of both.
    expect(rows.map((row) => row.textContent?.match(/\+([\d.]+)/)?.[1])).toEqual([
      '8.50',
      '7.50',
      '6.50',
      '5.50',
      '5.50',
    ])
    expect(rows[0]!.querySelector('a')).toHaveAttribute(
      'href',
      `/wallets/${TRADING}/transactions/${days(TRADING, 4, 5)[0]!.uuid}`,
    )
  })

  it('says so when nothing has happened yet', async () => {
    mockApi({
      'GET /wallets': page([aWallet({ uuid: PERSONAL })]),
      'GET /currencies': page([]),
      [`GET /wallets/${PERSONAL}/transactions`]: page([]),
    })
    renderApp(<RecentActivity />)
    expect(await screen.findByText(/No transactions yet/)).toBeInTheDocument()
  })
})
