import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  anAddress,
  aTransactionPage,
  aWallet,
  WALLET_UUID,
} from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import WalletPage from './wallet-page.tsx'

const W = `/wallets/${WALLET_UUID}`
const CHAINS = {
  body: {
    data: [
      {
        id: 'ethereum',
        name: 'Ethereum',
        native_currency: 'ETH',
        address_format: 'evm',
        confirmations: 12,
      },
      {
        id: 'tron',
        name: 'Tron',
        native_currency: 'TRX',
        address_format: 'tron',
        confirmations: 20,
      },
    ],
    total: 2,
    limit: 10,
    offset: 0,
    is_last_page: true,
  },
}

function renderWallet(routes: Record<string, Route> = {}) {
  const api = mockApi({
    [`GET ${W}`]: { body: aWallet() },
    'GET /chains': CHAINS,
    [`GET ${W}/addresses/ethereum`]: { body: { data: [] } },
    [`GET ${W}/addresses/tron`]: { body: { data: [] } },
    [`GET ${W}/transactions`]: { body: aTransactionPage(0, 2, 2) },
    ...routes,
  })
  return {
    api,
    ...renderApp(<WalletPage uuid={WALLET_UUID} activity={(csv) => csv} />, { path: W }),
  }
}

// happy-dom lays nothing out: give the history's scroller a viewport of ten rows.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640)
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400)
})

afterEach(() => {
  // Unmounted first, so coming back online refetches nothing after fetch is real again.
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('deposit addresses', () => {
  it('gets an address for the chosen network and shows it with a QR code and copy', async () => {
    const tronAddress = anAddress({ chain: 'tron', address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' })
    const { api, user } = renderWallet({
      [`POST ${W}/addresses/tron`]: { status: 201, body: tronAddress },
    })
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Network' }), 'Tron')
    expect(await screen.findByText('No address on this network yet.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Get address' }))

    expect(await screen.findByTestId('address')).toHaveTextContent(tronAddress.address)
    expect(api.to(`POST ${W}/addresses/tron`)).toHaveLength(1)
    const qr = await screen.findByRole('img', {
      name: `QR code of the address ${tronAddress.address}`,
    })
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/)

    await user.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await navigator.clipboard.readText()).toBe(tronAddress.address)
    expect(screen.getByText('Copied')).toHaveAttribute('role', 'status')
  })

  it('shows the address the wallet already has', async () => {
    renderWallet({ [`GET ${W}/addresses/ethereum`]: { body: { data: [anAddress()] } } })
    expect(await screen.findByTestId('address')).toHaveTextContent(anAddress().address)
  })

  it('cannot get an address offline', async () => {
    const { api } = renderWallet()
    await screen.findByText('No address on this network yet.')
    act(() => onlineManager.setOnline(false))
    expect(screen.getByRole('button', { name: 'Get address' })).toBeDisabled()
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([])
  })
})

describe('CSV export', () => {
  /** A CSV answer whose chunks the test sends; an aborted request errors the stream. */
  function streamCsv(api: ReturnType<typeof mockApi>) {
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const requests: string[] = []
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input)
      if (!url.includes('/csv')) return api.fetch(input, init)
      requests.push(url)
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c
        },
      })
      init.signal?.addEventListener('abort', () =>
        controller.error(new DOMException('Aborted', 'AbortError')),
      )
      return new Response(body, { headers: { 'content-type': 'text/csv' } })
    })
    const send = (bytes: number) => controller.enqueue(new Uint8Array(bytes).fill(65))
    return { requests, send, end: () => controller.close() }
  }

  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:csv', revokeObjectURL() {} }),
    )
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
  })

  it('shows the bytes received while it downloads, then saves the file', async () => {
    const api = mockApi({})
    const { user } = renderWallet()
    const csv = streamCsv(api)
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }))

    await waitFor(() => expect(csv.requests).toHaveLength(1))
    expect(csv.requests[0]).toBe(`/api/v1/wallets/transactions/${WALLET_UUID}/csv`)
    act(() => csv.send(1500))
    expect(await screen.findByText('Downloading… 1.5 kB received')).toBeInTheDocument()
    act(() => {
      csv.send(1500)
      csv.end()
    })
    expect(await screen.findByText('Downloaded 3 kB.')).toBeInTheDocument()
    const link = screen.getByTestId('csv-link')
    expect(link).toHaveAttribute('download', `transactions-${WALLET_UUID}.csv`)
    expect(HTMLAnchorElement.prototype.click).toHaveBeenCalled()
  })

  it('can be cancelled midway', async () => {
    const api = mockApi({})
    const { user } = renderWallet()
    const csv = streamCsv(api)
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }))
    await waitFor(() => expect(csv.requests).toHaveLength(1))
    act(() => csv.send(200))
    await user.click(await screen.findByRole('button', { name: 'Cancel download' }))
    expect(await screen.findByText('Download canceled.')).toBeInTheDocument()
    expect(screen.queryByTestId('csv-link')).toBeNull()
  })
})
