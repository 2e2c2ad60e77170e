import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aBalance, aPage, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { aRequest, REQUEST } from './people-fixtures.ts'
import RequestMoneyPage from './request-money-page.tsx'
import RequestsPage from './requests-page.tsx'
import { EUR, EUR_UUID } from './test-fixtures.ts'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('requesting money', () => {
  it('creates a request and shows its link, Telegram link and the server’s QR code as an image', async () => {
    const api = mockApi({
      'GET /wallets': { body: aPage([aWallet({ balances: [aBalance()] })]) },
      'GET /currencies': { body: aPage([EUR]) },
      'GET /chains': { body: aPage([]) },
      'POST /payment-requests': { status: 201, body: aRequest() },
    })
    const { user } = renderApp(<RequestMoneyPage />, { path: '/requests/new' })
    await user.type(await screen.findByRole('textbox', { name: 'Amount (EUR)' }), '20')
    await user.type(screen.getByRole('textbox', { name: 'What it’s for' }), 'Concert tickets')
    await user.click(screen.getByRole('button', { name: 'Create the link' }))
    expect(await screen.findByRole('heading', { name: 'Your request is ready' })).toHaveFocus()
    expect(api.to('POST /payment-requests')[0]!.body).toEqual({
      amount: '20',
      currency_uuid: EUR_UUID,
      wallet_uuid: WALLET_UUID,
      note: 'Concert tickets',
    })
    expect(screen.getByText(`https://app.example/pay/${REQUEST}`)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open in Telegram' })).toHaveAttribute(
      'href',
      `https://t.me/finbot/app?startapp=pr_${REQUEST}`,
    )
    const qr = screen.getByRole('img', { name: 'QR code of the link to pay €20.00' })
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml,%3Csvg/)
  })

  it('offers the system’s share sheet where there is one', async () => {
    const share = vi.fn().mockResolvedValue(undefined)
    vi.stubGlobal('navigator', { ...navigator, share })
    mockApi({
      'GET /wallets': { body: aPage([aWallet()]) },
      'GET /currencies': { body: aPage([EUR]) },
      'GET /chains': { body: aPage([]) },
      'POST /payment-requests': { status: 201, body: aRequest() },
    })
    const { user } = renderApp(<RequestMoneyPage />, { path: '/requests/new' })
    await user.type(await screen.findByRole('textbox', { name: 'Amount (EUR)' }), '20')
    await user.click(screen.getByRole('button', { name: 'Create the link' }))
    await user.click(await screen.findByRole('button', { name: 'Share' }))
    expect(share).toHaveBeenCalledWith({
      title: 'Payment request',
      text: 'Please pay me €20.00 · Concert tickets',
      url: `https://app.example/pay/${REQUEST}`,
    })
  })
})

describe('my requests', () => {
  it('lists them with their status, and cancels an open one after asking', async () => {
    const paid = aRequest({
      id: '0190b0a4-0000-7000-8000-00000000ab09',
      status: 'PAID',
      note: 'Pizza',
      paid_at: '2026-11-28T10:00:00Z',
    })
    let canceled = false
    const api = mockApi({
      'GET /payment-requests': () => ({
        body: aPage([canceled ? aRequest({ status: 'CANCELED' }) : aRequest(), paid]),
      }),
      [`DELETE /payment-requests/${REQUEST}`]: () => {
        canceled = true
        return { body: aRequest({ status: 'CANCELED' }) }
      },
    })
    const { user } = renderApp(<RequestsPage />, { path: '/requests' })
    const rows = await screen.findAllByRole('listitem')
    expect(within(rows[0]!).getByText('Waiting for payment')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Paid')).toBeInTheDocument()
    expect(within(rows[1]!).queryByRole('button', { name: 'Cancel request' })).toBeNull()
    await user.click(within(rows[0]!).getByRole('button', { name: 'Cancel request' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this request?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }))
    expect(api.to(`DELETE /payment-requests/${REQUEST}`)).toHaveLength(1)
    expect(await screen.findByText('Canceled')).toBeInTheDocument()
  })

  it('words a refused cancel in the dialog', async () => {
    mockApi({
      'GET /payment-requests': { body: aPage([aRequest()]) },
      [`DELETE /payment-requests/${REQUEST}`]: problem(409, 'REQUEST_ALREADY_PAID'),
    })
    const { user } = renderApp(<RequestsPage />, { path: '/requests' })
    await user.click(await screen.findByRole('button', { name: 'Cancel request' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this request?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }))
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument()
  })
})
