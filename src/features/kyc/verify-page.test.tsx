import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { KycStatus } from '../../../contract/enums.ts'
import type { KycHistoryEntry, KycStatusReply } from '../../../contract/kyc.ts'
import { COUNTRIES, mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { ApiError } from '../../net/api.ts'
import { userKeys } from '../../queries/user.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { pollInterval } from './queries.ts'
import VerifyPage from './verify-page.tsx'

const kycStatus = (
  status: KycStatus,
  history: KycHistoryEntry[] = [],
  overrides: Partial<KycStatusReply> = {},
): KycStatusReply => ({
  status,
  can_retry: ['UNVERIFIED', 'SOFT_REJECT', 'DECLINED'].includes(status),
  provider: 'sandbox',
  history,
  ...overrides,
})

const sandboxToken = {
  body: {
    token: 'sbx_act-abc',
    level_name: 'basic-kyc-level',
    provider: 'sandbox',
    expires_at: '2030-01-01T00:00:00.000Z',
  },
}

function renderVerify(routes: Record<string, Route>, language: 'en' | 'ru' = 'en') {
  const api = mockApi({ 'GET /location/countries': COUNTRIES, ...routes })
  return { api, ...renderApp(<VerifyPage />, { path: '/verify', language }) }
}

/** The line saying the status, once it says `words` (the PENDING poll is a real 2 s interval). */
const statusSays = (words: string) =>
  waitFor(() => expect(document.querySelector('[data-status]')).toHaveTextContent(words), {
    timeout: 10_000,
  })

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('the verification page says where it stands, in words, for every status', () => {
  it.each([
    ['UNVERIFIED', 'Not verified', /issue cards, withdraw and deposit/, 'Start verification'],
    ['PENDING', 'In review', /being checked/, undefined],
    ['HOLD', 'On hold', /closer look/, undefined],
    ['APPROVED', 'Verified', /is verified/, undefined],
    ['SOFT_REJECT', 'Needs changes', /needs fixing/, 'Try again'],
    ['DECLINED', 'Declined', /could not verify you/, 'Try again'],
    ['REJECT', 'Rejected', /decision is final/, undefined],
    ['DOUBLE', 'Duplicate', /already have a verified account/, undefined],
  ] as const)('%s', async (status, words, next, action) => {
    renderVerify({ 'GET /kyc/status': { body: kycStatus(status) } })
    const heading = await screen.findByRole('heading', { name: 'Identity verification' })
    const card = heading.closest('section')!
    expect(within(card).getByText(words)).toBeInTheDocument()
    expect(within(card).getByText(next)).toBeInTheDocument()
    if (action) expect(within(card).getByRole('button', { name: action })).toBeEnabled()
    else expect(within(card).queryByRole('button')).toBeNull()
    // Only a decision in the making shows progress and is asked for again.
    const waiting = status === 'PENDING' || status === 'HOLD'
    expect(screen.queryByRole('progressbar') !== null).toBe(waiting)
    expect(pollInterval(status) !== false).toBe(waiting)
    if (status === 'APPROVED') {
      expect(within(card).getByRole('link', { name: 'Go to cards' })).toHaveAttribute(
        'href',
        '/cards',
      )
    }
  })

  it('offers no way to cards when the tenant does not offer them', async () => {
    renderVerify({
      'GET /kyc/status': { body: kycStatus('APPROVED') },
      'GET /tenants/config': {
        body: { products: { crypto: true, fiat: true, cards: false, exchange: true, p2p: false } },
      },
    })
    await statusSays('Verified')
    // The tenant's configuration arrives too: then the link must not be there.
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Go to cards' })).not.toBeInTheDocument(),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('link', { name: 'Go to cards' })).not.toBeInTheDocument()
  })

  it('keeps each history entry as it is when a newer one arrives on top', async () => {
    let current = kycStatus('PENDING', [{ status: 'PENDING', at: '2024-05-01T10:00:00.000Z' }])
    const { queryClient } = renderVerify({ 'GET /kyc/status': () => ({ body: current }) })
    const history = (await screen.findByRole('heading', { name: 'History' })).closest('section')!
    const pending = within(history).getByRole('listitem')
    current = kycStatus('APPROVED', [
      { status: 'APPROVED', at: '2024-05-01T10:05:00.000Z' },
      { status: 'PENDING', at: '2024-05-01T10:00:00.000Z' },
    ])
    await queryClient.invalidateQueries()
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2))
    const items = within(history).getAllByRole('listitem')
    // The PENDING entry is the same element, moved down: keyed by its time and status.
    expect(items[1]).toBe(pending)
    expect(items[0]).toHaveTextContent('Verified')
  })

  it('reads the person again once decided: an approval may have named them', async () => {
    let current = kycStatus('PENDING', [{ status: 'PENDING', at: '2024-05-01T10:00:00.000Z' }])
    const { queryClient } = renderVerify({ 'GET /kyc/status': () => ({ body: current }) })
    await statusSays('Status: In review')
    queryClient.setQueryData(userKeys.data(), { first_name: null })
    expect(queryClient.getQueryState(userKeys.data())?.isInvalidated).toBe(false)
    current = kycStatus('APPROVED', [{ status: 'APPROVED', at: '2024-05-01T10:05:00.000Z' }])
    await statusSays('Status: Verified')
    expect(queryClient.getQueryState(userKeys.data())?.isInvalidated).toBe(true)
  })

  it('shows the reason of a refusal and the history, in Russian too', async () => {
    renderVerify(
      {
        'GET /kyc/status': {
          body: kycStatus('SOFT_REJECT', [
            {
              status: 'SOFT_REJECT',
              at: '2024-05-01T10:05:00.000Z',
              reason: 'The photo is blurred',
            },
            { status: 'PENDING', at: '2024-05-01T10:00:00.000Z' },
          ]),
        },
      },
      'ru',
    )
    await statusSays('Статус: Нужны исправления')
    expect(
      screen.getByText(/The photo is blurred/, { selector: 'p:not(.muted)' }),
    ).toBeInTheDocument()
    const history = screen.getByRole('heading', { name: 'История' }).closest('section')!
    const items = within(history).getAllByRole('listitem')
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      'Нужны исправления',
      'На проверке',
    ])
    expect(screen.getByRole('button', { name: 'Попробовать снова' })).toBeEnabled()
  })
})

describe('the sandbox verification screen', () => {
  it('takes the document, the selfie, then sends, and waits for the decision', async () => {
    let current = kycStatus('UNVERIFIED')
    const { api, user } = renderVerify({
      'GET /kyc/status': () => ({ body: current }),
      'POST /kyc/sumsub/generate_token': sandboxToken,
      'POST /kyc/sandbox/applicant': () => {
        current = kycStatus('PENDING', [{ status: 'PENDING', at: '2024-05-01T10:00:00.000Z' }])
        return { status: 201, body: current }
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Start verification' }))

    expect(await screen.findByRole('heading', { name: 'Your document' })).toHaveFocus()
    // Nothing filled in: each field says what it needs, and the step stays.
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(screen.getByLabelText('First name, as on the document')).toHaveAccessibleDescription(
      'Enter your first name.',
    )
    await user.type(screen.getByLabelText('First name, as on the document'), ' Ada ')
    await user.type(screen.getByLabelText('Last name, as on the document'), 'Lovelace')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Document' }), 'ID_CARD')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Issuing country' }), 'GB')
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    expect(await screen.findByRole('heading', { name: 'A selfie' })).toHaveFocus()
    expect(screen.getByRole('img', { name: 'Your face goes in the circle' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Take the selfie' }))
    expect(screen.getByRole('img', { name: 'Selfie taken' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Continue' }))

    const review = (await screen.findByRole('heading', { name: 'Check and send' })).closest(
      'section',
    )!
    expect(within(review).getByText('Ada Lovelace')).toBeInTheDocument()
    expect(within(review).getByText('Identity card')).toBeInTheDocument()
    await user.click(within(review).getByRole('button', { name: 'Send for verification' }))

    await statusSays('Status: In review')
    expect(screen.getByRole('progressbar', { name: 'Checking your documents' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Check and send' })).toBeNull()
    expect(api.to('POST /kyc/sandbox/applicant').map((call) => call.body)).toEqual([
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        document_type: 'ID_CARD',
        country: 'GB',
        selfie: true,
      },
    ])
  })

  it('offers only the countries the tenant serves', async () => {
    const { user } = renderVerify({
      'GET /kyc/status': { body: kycStatus('UNVERIFIED') },
      'POST /kyc/sumsub/generate_token': sandboxToken,
      'GET /tenants/config': {
        body: {
          products: { crypto: true, fiat: true, cards: true, exchange: true, p2p: true },
          supported_countries: ['DE', 'GB'],
        },
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Start verification' }))
    const country = await screen.findByRole('combobox', { name: 'Issuing country' })
    await waitFor(() =>
      expect(
        within(country)
          .getAllByRole('option')
          .map((option) => option.getAttribute('value'))
          .filter(Boolean)
          .sort(),
      ).toEqual(['DE', 'GB']),
    )
  })

  it('polls while PENDING and shows the decision when it comes', async () => {
    let current = kycStatus('PENDING')
    const { api } = renderVerify({ 'GET /kyc/status': () => ({ body: current }) })
    await statusSays('Status: In review')
    current = kycStatus('APPROVED', [{ status: 'APPROVED', at: '2024-05-01T10:00:03.000Z' }])
    await statusSays('Status: Verified')
    expect(api.to('GET /kyc/status').length).toBeGreaterThanOrEqual(2)
    expect(screen.queryByRole('progressbar')).toBeNull()
  })

  it('a refused submission is said in words, and the person stays on the review', async () => {
    const { user } = renderVerify({
      'GET /kyc/status': { body: kycStatus('DECLINED') },
      'POST /kyc/sumsub/generate_token': sandboxToken,
      'POST /kyc/sandbox/applicant': problem(409, 'KYC_IN_REVIEW'),
    })
    await user.click(await screen.findByRole('button', { name: 'Try again' }))
    await user.type(await screen.findByLabelText('First name, as on the document'), 'Ada')
    await user.type(screen.getByLabelText('Last name, as on the document'), 'Lovelace')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Issuing country' }), 'DE')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Take the selfie' }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.click(await screen.findByRole('button', { name: 'Send for verification' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your verification is already being checked.',
    )
    expect(screen.getByRole('heading', { name: 'Check and send' })).toBeInTheDocument()
  })

  it('a final refusal of the token is said in words', async () => {
    const { user } = renderVerify({
      'GET /kyc/status': { body: kycStatus('UNVERIFIED') },
      'POST /kyc/sumsub/generate_token': problem(409, 'KYC_FINAL'),
    })
    await user.click(await screen.findByRole('button', { name: 'Start verification' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The verification was refused for good. Contact support.',
    )
  })
})

describe('a 403 KYC_REQUIRED anywhere', () => {
  it('becomes a “Verify your identity” prompt leading to /verify, and takes the focus', async () => {
    const refusal = new ApiError(403, {
      type: 'https://docs.finplatform.dev/problems/kyc-required',
      title: 'Forbidden',
      status: 403,
      code: 'KYC_REQUIRED',
      kyc_status: 'UNVERIFIED',
    })
    renderApp(<ErrorSummary error={refusal} />)
    const prompt = await screen.findByRole('alert', { name: 'Verify your identity' })
    await waitFor(() => expect(prompt).toHaveFocus())
    expect(within(prompt).getByRole('link', { name: 'Verify your identity' })).toHaveAttribute(
      'href',
      '/verify',
    )
  })

  it('other refusals keep their words', () => {
    renderApp(<ErrorSummary error={new ApiError(403, undefined)} />)
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have access to this.')
    expect(screen.queryByRole('link')).toBeNull()
  })
})
