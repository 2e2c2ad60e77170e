import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aBalance, aPage, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import PaymentRequestPage from './payment-request-page.tsx'
import { ACTIVITY, aRequest, aTransfer, REQUEST } from './people-fixtures.ts'
import { EUR_UUID } from './test-fixtures.ts'

/** The public view: what anyone with the link reads. */
const view = () => {
  const {
    url: _u,
    telegram_url: _t,
    qr_svg: _q,
    wallet_uuid: _w,
    paid_at: _p,
    ...rest
  } = aRequest()
  return rest
}
const euros = (available: string) =>
  aBalance({ currency_uuid: EUR_UUID, currency: 'EUR', chain: null, decimals: 2, available })

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

describe('a payment request’s page', () => {
  it('signed out: who asks, how much, for what — and sign-up or sign-in that come back here', async () => {
    const api = mockApi({ [`GET /payment-requests/${REQUEST}`]: { body: view() } })
    renderApp(<PaymentRequestPage id={REQUEST} signedIn={false} />, { path: `/pay/${REQUEST}` })
    expect(
      await screen.findByRole('heading', { name: 'Mia K. asks you to pay' }),
    ).toBeInTheDocument()
    expect(screen.getByText('€20.00')).toBeInTheDocument()
    expect(screen.getByText('Concert tickets')).toBeInTheDocument()
    expect(screen.getByText('Waiting for payment')).toBeInTheDocument()
    const back = encodeURIComponent(`/pay/${REQUEST}`)
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      `/auth/sign-up?next=${back}`,
    )
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/auth/sign-in?next=${back}`,
    )
    expect(api.to('GET /wallets')).toHaveLength(0)
  })

  it('signed in: pays from the wallet that holds enough, once', async () => {
    let settled = false
    const api = mockApi({
      // Read again after paying, the view is PAID: the screen still says it was paid here.
      [`GET /payment-requests/${REQUEST}`]: () => ({
        body: { ...view(), status: settled ? 'PAID' : 'OPEN' },
      }),
      'GET /wallets': {
        body: aPage([
          aWallet({ uuid: '0190b0a4-0000-7000-8000-00000000ab0a', balances: [euros('5')] }),
          aWallet({ balances: [euros('300')] }),
        ]),
      },
      [`POST /payment-requests/${REQUEST}/pay`]: () => {
        settled = true
        return {
          status: 201,
          body: { request: { ...view(), status: 'PAID' }, transfer: aTransfer() },
        }
      },
    })
    const { user } = renderApp(<PaymentRequestPage id={REQUEST} signedIn />, {
      path: `/pay/${REQUEST}`,
    })
    await user.click(await screen.findByRole('button', { name: 'Pay €20.00' }))
    expect(await screen.findByText('Paid. Mia K. has the money.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See it in your activity' })).toHaveAttribute(
      'href',
      `/activity/${ACTIVITY}`,
    )
    const paid = api.to(`POST /payment-requests/${REQUEST}/pay`)
    expect(paid).toHaveLength(1)
    expect(paid[0]!.body).toMatchObject({ wallet_uuid: WALLET_UUID })
  })

  it('says a wallet is short and does not offer to pay from it', async () => {
    mockApi({
      [`GET /payment-requests/${REQUEST}`]: { body: view() },
      'GET /wallets': { body: aPage([aWallet({ balances: [euros('5')] })]) },
    })
    renderApp(<PaymentRequestPage id={REQUEST} signedIn />, { path: `/pay/${REQUEST}` })
    expect(await screen.findByText(/not enough for this request/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Pay €20.00' })).toBeDisabled()
  })

  it('words a request someone else paid first', async () => {
    mockApi({
      [`GET /payment-requests/${REQUEST}`]: { body: view() },
      'GET /wallets': { body: aPage([aWallet({ balances: [euros('300')] })]) },
      [`POST /payment-requests/${REQUEST}/pay`]: problem(409, 'REQUEST_ALREADY_PAID'),
    })
    const { user } = renderApp(<PaymentRequestPage id={REQUEST} signedIn />, {
      path: `/pay/${REQUEST}`,
    })
    await user.click(await screen.findByRole('button', { name: 'Pay €20.00' }))
    expect(await screen.findByRole('alert')).toBeInTheDocument()
  })

  it('offers nothing to pay on a request that is no longer open', async () => {
    mockApi({ [`GET /payment-requests/${REQUEST}`]: { body: { ...view(), status: 'PAID' } } })
    renderApp(<PaymentRequestPage id={REQUEST} signedIn={false} />, { path: `/pay/${REQUEST}` })
    expect(await screen.findByText('Paid')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull()
  })

  it('tells the requester it is their own request instead of offering to pay it', async () => {
    mockApi({
      [`GET /payment-requests/${REQUEST}`]: { body: view() },
      'GET /payment-requests': { body: aPage([aRequest()]) },
      'GET /wallets': { body: aPage([aWallet({ balances: [euros('300')] })]) },
    })
    renderApp(<PaymentRequestPage id={REQUEST} signedIn />, { path: `/pay/${REQUEST}` })
    expect(await screen.findByText(/^This is your request/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Pay €20.00' })).toBeNull()
  })
})
