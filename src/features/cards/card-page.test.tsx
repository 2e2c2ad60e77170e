import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CardDetail, CardStatus } from '../../../contract/cards.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { CardSecretsError, type RevealedSecrets } from '../../workers/card-secrets.ts'
import CardPage from './card-page.tsx'
import { aCardDetail, aPage, CARD_ID } from './test-builders.ts'

const worker = vi.hoisted(() => ({
  reveal: vi.fn<(cardId: string) => Promise<RevealedSecrets>>(),
  close: vi.fn(),
  opened: 0,
}))
// The worker itself is tested in src/workers; here the page gets its answer.
vi.mock('../../workers/card-secrets-client.ts', () => ({
  openCardSecrets: () => {
    worker.opened += 1
    return { reveal: worker.reveal, close: worker.close }
  },
}))

const SECRETS = { pan: '4000123412344242', expiry: '11/29', cvv: '042' }
const CARD = `/issuing/cards/${CARD_ID}`

/** The page against a small server that remembers the card's status. */
function renderPage(
  routes: Record<string, Route> = {},
  card: Partial<CardDetail> = {},
  path = `/cards/${CARD_ID}`,
) {
  let stored = aCardDetail(card)
  const move = (to: CardStatus) => () => {
    stored = { ...stored, status: to }
    const { fiat_account, ...rest } = stored
    return { body: { ...rest, fiat_account: { id: fiat_account.id, type: fiat_account.type } } }
  }
  const api = mockApi({
    [`GET ${CARD}`]: () => ({ body: stored }),
    [`GET ${CARD}/reveals`]: { body: aPage([]) },
    'GET /issuing/transactions/': { body: aPage([]) },
    [`PATCH ${CARD}/freeze`]: move('FROZEN'),
    [`PATCH ${CARD}/unfreeze`]: move('ACTIVE'),
    [`DELETE ${CARD}`]: move('CLOSED'),
    ...routes,
  })
  return { api, ...renderApp(<CardPage id={CARD_ID} />, { timers: 'fake', path }) }
}

const setVisibility = (state: DocumentVisibilityState) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state })
  document.dispatchEvent(new Event('visibilitychange'))
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  worker.reveal.mockReset()
  worker.close.mockReset()
  worker.opened = 0
})

afterEach(() => {
  vi.useRealTimers()
  setVisibility('visible')
})

const number = () => screen.queryByText('4000 1234 1234 4242')

/** The "More" sheet: the card's name, a one-time code, the statement, the log, closing. */
async function openMore(user: { click: (element: Element) => Promise<void> }) {
  await user.click(await screen.findByRole('button', { name: 'More' }))
  return screen.findByRole('dialog', { name: 'Card settings' })
}

describe('card page: revealing the card details', () => {
  it('shows number, expiry and CVV on request and hides them after 30 seconds', async () => {
    worker.reveal.mockResolvedValue(SECRETS)
    const { user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    expect(await screen.findByText('4000 1234 1234 4242')).toBeVisible()
    expect(screen.getByText('11/29')).toBeVisible()
    expect(screen.getByText('042')).toBeVisible()
    expect(worker.reveal).toHaveBeenCalledWith(CARD_ID)

    act(() => vi.advanceTimersByTime(29_000))
    expect(number()).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1_000))
    expect(number()).not.toBeInTheDocument()
    expect(screen.queryByText('042')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Show card details' })).toBeEnabled()
  })

  it('hides them as soon as the app goes to the background', async () => {
    worker.reveal.mockResolvedValue(SECRETS)
    const { user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    await screen.findByText('4000 1234 1234 4242')
    act(() => setVisibility('hidden'))
    expect(number()).not.toBeInTheDocument()
  })

  it('keeps them out of every cache and store, and ends the worker when the page goes', async () => {
    worker.reveal.mockResolvedValue(SECRETS)
    const { user, queryClient, unmount } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    await screen.findByText('4000 1234 1234 4242')

    const cached = JSON.stringify([
      queryClient
        .getQueryCache()
        .getAll()
        .map((query) => [query.queryKey, query.state]),
      queryClient
        .getMutationCache()
        .getAll()
        .map((mutation) => mutation.state),
    ])
    expect(cached).toContain('4242') // the last four are no secret: the dump is real
    expect(cached).not.toContain(SECRETS.pan)
    expect(cached).not.toContain('"042"')
    const stores = JSON.stringify([{ ...localStorage }, { ...sessionStorage }])
    expect(stores).not.toContain(SECRETS.pan)

    unmount()
    expect(worker.close).toHaveBeenCalledOnce()
  })

  it('reads the reveal log again after a reveal', async () => {
    worker.reveal.mockResolvedValue(SECRETS)
    let logged = false
    const { user } = renderPage({
      [`GET ${CARD}/reveals`]: () => ({
        body: aPage(
          logged
            ? [
                {
                  id: '0190b0a4-0000-7000-8000-0000000000e1',
                  kind: 'SECRETS',
                  session_id: '5e55105e-0000-7000-8000-000000000001',
                  created_at: '2026-01-03T10:00:00Z',
                },
              ]
            : [],
        ),
      }),
    })
    let more = await openMore(user)
    expect(await within(more).findByText('Nobody has seen this card’s details yet.')).toBeVisible()
    await user.click(within(more).getByRole('button', { name: 'Close' }))
    logged = true
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    await screen.findByText('4000 1234 1234 4242')
    more = await openMore(user)
    expect(await within(more).findByText(/Card details shown/)).toHaveTextContent(
      'session 5e55105e',
    )
  })

  it('copies a detail and empties the clipboard 30 s later if it still holds it', async () => {
    worker.reveal.mockResolvedValue(SECRETS)
    const { user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    await user.click(await screen.findByRole('button', { name: 'Copy card number' }))
    expect(await navigator.clipboard.readText()).toBe(SECRETS.pan)
    expect(screen.getByText('Copied. The clipboard is cleared in 30 seconds.')).toBeVisible()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000)
    })
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(''))
  })

  it('leaves the clipboard alone when something else was copied since', async () => {
    worker.reveal.mockResolvedValue(SECRETS)
    const { user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    await user.click(await screen.findByRole('button', { name: 'Copy CVV' }))
    await navigator.clipboard.writeText('something else')
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000)
    })
    // Given the same time the clearing gets above, it still has not touched it.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100)
    })
    expect(await navigator.clipboard.readText()).toBe('something else')
  })

  it('says in words when the card can no longer be revealed', async () => {
    worker.reveal.mockRejectedValue(
      new CardSecretsError('Failed to get encrypted secret key', {
        status: 409,
        problem: {
          ...(problem(409, 'CARD_STATUS_CONFLICT').body as object),
          card_status: 'CLOSED',
        } as never,
        retryAfter: undefined,
      }),
    )
    const { user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The card changed meanwhile: it is now Closed.',
    )
  })

  it('says the details could not be shown when the exchange fails', async () => {
    worker.reveal.mockRejectedValue(new CardSecretsError('VITE_CARD_SECRET_PUBLIC_KEY is not set'))
    const { user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Show card details' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The card details could not be shown. Try again later.',
    )
  })
})

describe('card page: one-time code', () => {
  it('shows a code once asked, and drops it when the app goes to the background', async () => {
    const { api, user } = renderPage({
      [`GET /vcards/cards/${CARD_ID}/sensitive/otp`]: {
        body: { code: '731904', expires_at: '2026-01-03T10:05:00Z' },
      },
    })
    const more = await openMore(user)
    await user.click(within(more).getByRole('button', { name: 'Get a one-time code' }))
    expect(await screen.findByText('731904')).toBeVisible()
    expect(api.to(`GET /vcards/cards/${CARD_ID}/sensitive/otp`)).toHaveLength(1)
    act(() => setVisibility('hidden'))
    expect(screen.queryByText('731904')).not.toBeInTheDocument()
  })
})

describe('card page: freeze and unfreeze', () => {
  it('freezes an active card and unfreezes it again', async () => {
    const { api, user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Freeze card' }))
    expect(await screen.findByText(/Card frozen\./)).toBeVisible()
    expect(api.to(`PATCH ${CARD}/freeze`)).toHaveLength(1)
    expect(await screen.findAllByText('Frozen')).not.toHaveLength(0)

    await user.click(await screen.findByRole('button', { name: 'Unfreeze card' }))
    expect(await screen.findByText(/Card unfrozen\./)).toBeVisible()
    expect(api.to(`PATCH ${CARD}/unfreeze`)).toHaveLength(1)
    expect(await screen.findByRole('button', { name: 'Freeze card' })).toBeVisible()
  })

  it('shows the status the server reports when the card changed elsewhere', async () => {
    const { user } = renderPage({
      [`PATCH ${CARD}/freeze`]: problem(409, 'CARD_STATUS_CONFLICT', { card_status: 'BLOCKED' }),
    })
    await user.click(await screen.findByRole('button', { name: 'Freeze card' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The card changed meanwhile: it is now Blocked.',
    )
  })
})

describe('card page: closing', () => {
  it('asks first, and a cancel leaves the card open', async () => {
    const { api, user } = renderPage()
    const more = await openMore(user)
    await user.click(within(more).getByRole('button', { name: 'Close card…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Close this card?' })
    expect(
      within(dialog).getByText('Its remaining balance goes back to your wallet.'),
    ).toBeVisible()
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Close this card?' })).not.toBeInTheDocument(),
    )
    expect(api.to(`DELETE ${CARD}`)).toHaveLength(0)
  })

  it('closes the card once confirmed; a closed card offers no actions nor reveal', async () => {
    const { api, user } = renderPage()
    const more = await openMore(user)
    await user.click(within(more).getByRole('button', { name: 'Close card…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Close this card?' })
    await user.click(within(dialog).getByRole('button', { name: 'Close card' }))
    await waitFor(() => expect(api.to(`DELETE ${CARD}`)).toHaveLength(1))
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Show card details' })).not.toBeInTheDocument(),
    )
    expect(screen.getByText('Closed')).toBeVisible()
    expect(screen.queryByRole('button', { name: 'Freeze card' })).not.toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})

describe('card page: adding money', () => {
  const withIban = {
    ...aCardDetail().fiat_account,
    balance: '0',
    bank_details: {
      iban: 'DE89370400440532013000',
      bic: 'FNPLDEB1XXX',
      bank_name: 'Finplatform Bank',
      account_holder: 'Anna Novak',
    },
  }

  it('offers a top-up from the wallet onto the card’s account, and its own IBAN to copy', async () => {
    const { user } = renderPage({}, { fiat_account: withIban })
    await user.click(await screen.findByRole('button', { name: 'Add money' }))
    const sheet = await screen.findByRole('dialog', { name: 'Add money to this card' })
    expect(within(sheet).getByRole('link', { name: 'Top up from a wallet' })).toHaveAttribute(
      'href',
      `/top-up?wallet=${aCardDetail().wallet_uuid}&account=${withIban.id}&card=${CARD_ID}`,
    )
    const bank = await within(sheet).findByRole('region', { name: 'Pay in by bank transfer' })
    expect(within(bank).getByText('DE89 3704 0044 0532 0130 00')).toBeVisible()
    await user.click(within(bank).getByRole('button', { name: 'Copy IBAN' }))
    expect(await navigator.clipboard.readText()).toBe('DE89370400440532013000')
  })

  it('opens by itself on a card just issued, and “Not now” leaves the card as it is', async () => {
    const { user, history } = renderPage(
      {},
      { fiat_account: withIban },
      `/cards/${CARD_ID}?issued=1`,
    )
    const sheet = await screen.findByRole('dialog', { name: 'Your card is ready' })
    expect(sheet).toHaveTextContent('Add money to it to start paying.')
    await user.click(within(sheet).getByRole('button', { name: 'Not now' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(history.at(-1)).toBe(`/cards/${CARD_ID}`)
  })

  it('is not offered on a closed card', async () => {
    renderPage({}, { status: 'CLOSED' })
    await screen.findByTestId('card-balance')
    expect(screen.queryByRole('button', { name: 'Add money' })).toBeNull()
  })
})
