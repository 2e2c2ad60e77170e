import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Statement } from '../../../contract/statements.ts'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import StatementPage from './statement-page.tsx'

const WALLET = '0190f4c2-7a1b-7c3d-8e4f-5a6b7c8d9e0f'

const statement = (over: Partial<Statement> = {}): Statement => ({
  id: '0190f4c2-0000-7000-8000-000000000001',
  status: 'queued',
  progress: 0,
  scope: { type: 'wallet', id: WALLET },
  from: '2026-02-01T00:00:00.000Z',
  to: '2026-03-01T00:00:00.000Z',
  format: 'pdf',
  language: 'en',
  time_zone: 'UTC',
  code: '7KQ2M9XA3FPD',
  sha256: null,
  file_name: null,
  size: null,
  created_at: '2026-03-02T10:00:00.000Z',
  updated_at: '2026-03-02T10:00:00.000Z',
  ...over,
})

describe('the statement screen', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('asks for last month as a PDF in this device’s zone, follows its progress, then offers the file and its code', async () => {
    let reads = 0
    const api = mockApi({
      'POST /statements': { status: 202, body: statement() },
      [`GET /statements/${statement().id}`]: () => {
        reads++
        return {
          body:
            reads < 2
              ? statement({ status: 'rendering', progress: 40 })
              : statement({
                  status: 'ready',
                  progress: 100,
                  sha256: 'a'.repeat(64),
                  file_name: 'statement-2026-02-01-2026-02-28-7KQ2M9XA3FPD.pdf',
                  size: 24_000,
                }),
        }
      },
    })
    const { user, history } = renderApp(<StatementPage />, { path: `/statements?wallet=${WALLET}` })
    expect(screen.getByRole('heading', { name: 'Statement' })).toBeInTheDocument()
    // The month before this one is chosen; PDF too.
    expect(screen.getByRole('radio', { name: 'PDF' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Make statement' }))

    await waitFor(() => expect(api.to('POST /statements')).toHaveLength(1))
    const body = api.to('POST /statements')[0]!.body as Record<string, unknown>
    const now = new Date()
    expect(body).toMatchObject({
      scope: { wallet_uuid: WALLET },
      format: 'pdf',
      language: 'en',
      from: new Date(now.getFullYear(), now.getMonth() - 1, 1).toISOString(),
      to: new Date(now.getFullYear(), now.getMonth(), 1).toISOString(),
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    })
    await waitFor(() => expect(history.at(-1)).toContain(`id=${statement().id}`))
    expect(await screen.findByRole('progressbar', { name: '40% done' })).toBeInTheDocument()
    expect(
      await screen.findByRole('button', { name: 'Download' }, { timeout: 5_000 }),
    ).toBeEnabled()
    expect(screen.getByText(/Verification code 7KQ2-M9XA-3FPD/)).toBeInTheDocument()
  })

  it('a range of days that holds nothing says how to fix it and asks nothing', async () => {
    const api = mockApi({})
    const { user } = renderApp(<StatementPage />, { path: `/statements?card=${WALLET}&last4=4242` })
    expect(screen.getByText(/the card ·· 4242/)).toBeInTheDocument()
    await user.click(screen.getByRole('radio', { name: 'Pick dates' }))
    await user.type(screen.getByLabelText('First day'), '2026-03-10')
    await user.type(screen.getByLabelText('Last day'), '2026-03-01')
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The last day must not be before the first.',
    )
    expect(screen.getByRole('button', { name: 'Make statement' })).toBeDisabled()
    expect(api.calls).toHaveLength(0)
  })
})
