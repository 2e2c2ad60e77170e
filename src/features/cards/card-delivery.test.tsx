import { focusManager } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CardDetail, DeliveryStatus } from '../../../contract/cards.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import CardPage from './card-page.tsx'
import { DELIVERY_POLL_MS } from './queries.ts'
import { aCardDetail, aPage, CARD_ID } from './test-builders.ts'

const CARD = `/issuing/cards/${CARD_ID}`
const ACTIVATE = `PATCH ${CARD}/activate`

const physical = (status: DeliveryStatus, card: Partial<CardDetail> = {}) =>
  aCardDetail({
    form_factor: 'PHYSICAL',
    status: 'INACTIVE',
    delivery: {
      status,
      address: {
        recipient_name: 'Ada Lovelace',
        line1: '12 Square',
        city: 'London',
        postal_code: 'SW1Y 4JH',
        country: 'GB',
      },
      updated_at: '2026-03-01T10:00:00Z',
    },
    ...card,
  })

function renderCard(card: CardDetail, routes: Record<string, Route> = {}) {
  let stored = card
  const api = mockApi({
    [`GET ${CARD}`]: () => ({ body: stored }),
    [`GET ${CARD}/reveals`]: { body: aPage([]) },
    'GET /issuing/transactions/': { body: aPage([]) },
    ...routes,
  })
  const activate = (status: CardDetail['status']) => {
    stored = { ...stored, status }
    const { fiat_account, ...rest } = stored
    return { ...rest, fiat_account: { id: fiat_account.id, type: fiat_account.type } }
  }
  return { api, activate, ...renderApp(<CardPage id={CARD_ID} />) }
}

const CVV_LABEL = 'Security code (CVV) on the back of the card'

const deliverySection = async () =>
  (await screen.findByRole('heading', { name: 'Delivery' })).closest('section')!

describe('card page: delivery of a physical card', () => {
  it('shows how far the delivery has got, the current step marked', async () => {
    renderCard(physical('SHIPPED'))
    const section = await deliverySection()
    const steps = within(section).getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual(['Ordered', 'Shipped', 'Delivered'])
    expect(steps[1]).toHaveAttribute('aria-current', 'step')
    expect(steps[0]).not.toHaveAttribute('aria-current')
    expect(within(section).getByRole('status')).toHaveTextContent('Delivery status: Shipped.')
    // Not delivered yet: nothing to activate.
    expect(within(section).queryByRole('button', { name: 'Activate card' })).toBeNull()
  })

  it('shows nothing about delivery for a virtual card', async () => {
    renderCard(aCardDetail())
    await screen.findByRole('heading', { name: 'Travel' })
    expect(screen.queryByRole('heading', { name: 'Delivery' })).toBeNull()
  })

  it('offers neither the card details nor a one-time code before activation', async () => {
    renderCard(physical('DELIVERED'))
    await deliverySection()
    expect(screen.getByRole('textbox', { name: CVV_LABEL })).toBeVisible()
    expect(screen.queryByRole('button', { name: 'Show card details' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Get a one-time code' })).toBeNull()
  })

  it('activates a delivered card with the security code printed on its back', async () => {
    let store: ReturnType<typeof renderCard> | undefined
    const api = renderCard(physical('DELIVERED'), {
      [ACTIVATE]: (call) => {
        if ((call.body as { cvv: string }).cvv !== '042') {
          return problem(422, 'ACTIVATION_CODE_INVALID', {
            errors: [{ field: '/body/cvv', message: 'Wrong code.' }],
          })
        }
        return { body: store?.activate('ACTIVE') }
      },
    })
    store = api
    const { user, queryClient } = api
    const cvv = await screen.findByRole('textbox', { name: CVV_LABEL })
    expect(cvv).toHaveAttribute('inputmode', 'numeric')
    expect(cvv).toHaveAttribute('autocomplete', 'off')

    await user.type(cvv, '12')
    await user.click(screen.getByRole('button', { name: 'Activate card' }))
    expect(cvv).toHaveAccessibleDescription('Enter the 3 digits printed on the back of the card.')
    expect(api.api.to(ACTIVATE)).toHaveLength(0)

    await user.type(cvv, '3')
    await user.click(screen.getByRole('button', { name: 'Activate card' }))
    await waitFor(() =>
      expect(cvv).toHaveAccessibleDescription('This is not the security code of this card.'),
    )
    expect(cvv).toHaveFocus()
    // Sent, then kept nowhere: not in the field, not in the query client.
    expect(cvv).toHaveValue('')
    const kept = JSON.stringify(
      queryClient
        .getMutationCache()
        .getAll()
        .map((mutation) => mutation.state),
    )
    expect(kept).not.toContain('123')

    await user.type(cvv, '042')
    await user.click(screen.getByRole('button', { name: 'Activate card' }))
    expect(await screen.findByText('Card activated. It can pay now.')).toBeVisible()
    expect(api.api.to(ACTIVATE).map((call) => call.body)).toEqual([{ cvv: '123' }, { cvv: '042' }])
    // Read again: ACTIVE, so the form goes and the card can be frozen.
    expect(await screen.findByRole('button', { name: 'Freeze card' })).toBeVisible()
    expect(screen.queryByRole('textbox', { name: CVV_LABEL })).toBeNull()
  })

  it('says how long to wait after too many wrong codes', async () => {
    const { user } = renderCard(physical('DELIVERED'), {
      [ACTIVATE]: problem(429, 'RATE_LIMITED', { retry_after: 1800 }),
    })
    await user.type(await screen.findByRole('textbox', { name: CVV_LABEL }), '123')
    await user.click(screen.getByRole('button', { name: 'Activate card' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Try again in 1800 s.',
    )
  })

  it('says so when the server does not count the card as delivered yet', async () => {
    const { user } = renderCard(physical('DELIVERED'), {
      [ACTIVATE]: problem(409, 'CARD_NOT_DELIVERED'),
    })
    await user.type(await screen.findByRole('textbox', { name: CVV_LABEL }), '042')
    await user.click(screen.getByRole('button', { name: 'Activate card' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The card is not marked as delivered yet.',
    )
  })

  it('speaks Russian', async () => {
    mockApi({
      [`GET ${CARD}`]: { body: physical('ORDERED') },
      [`GET ${CARD}/reveals`]: { body: aPage([]) },
      'GET /issuing/transactions/': { body: aPage([]) },
    })
    renderApp(<CardPage id={CARD_ID} />, { language: 'ru' })
    const heading = await screen.findByRole('heading', { name: 'Доставка' })
    expect(within(heading.closest('section')!).getByRole('status')).toHaveTextContent(
      'Статус доставки: Заказана.',
    )
  })
})

describe('card page: a card on its way', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
  })
  afterEach(() => {
    focusManager.setFocused(undefined)
    vi.useRealTimers()
  })

  function renderOnItsWay() {
    let stored = physical('SHIPPED')
    const api = mockApi({
      [`GET ${CARD}`]: () => ({ body: stored }),
      [`GET ${CARD}/reveals`]: { body: aPage([]) },
      'GET /issuing/transactions/': { body: aPage([]) },
    })
    renderApp(<CardPage id={CARD_ID} />, { timers: 'fake' })
    return {
      reads: () => api.to(`GET ${CARD}`).length,
      deliver: () => {
        stored = physical('DELIVERED')
      },
    }
  }

  it('follows the courier every 5 s until the card is delivered, then stops asking', async () => {
    const courier = renderOnItsWay()
    const section = await deliverySection()
    expect(courier.reads()).toBe(1)
    await act(() => vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS))
    await waitFor(() => expect(courier.reads()).toBe(2))

    courier.deliver()
    await act(() => vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS))
    await waitFor(() =>
      expect(within(section).getByRole('status')).toHaveTextContent('Delivery status: Delivered.'),
    )
    expect(screen.getByRole('textbox', { name: CVV_LABEL })).toBeVisible()
    const reads = courier.reads()
    await act(() => vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS * 3))
    expect(courier.reads()).toBe(reads)
  })

  it('does not ask while the page is not visible', async () => {
    const courier = renderOnItsWay()
    await deliverySection()
    act(() => focusManager.setFocused(false))
    await act(() => vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS * 3))
    expect(courier.reads()).toBe(1)
  })
})
