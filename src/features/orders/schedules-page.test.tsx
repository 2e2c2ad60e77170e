import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schedule } from '../../../contract/schedules.ts'
import { aPage, aWallet, WALLET_UUID } from '../../../tests/support/builders.ts'
import { mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { ANNA } from './people-fixtures.ts'
import SchedulesPage from './schedules-page.tsx'
import { BTC, EUR, EUR_UUID } from './test-fixtures.ts'

const SCHEDULE = '0190b0a4-0000-7000-8000-00000000ac01'

const aSchedule = (overrides: Partial<Schedule> = {}): Schedule => ({
  id: SCHEDULE,
  kind: 'transfer',
  template: {
    to: { user_id: ANNA },
    wallet_uuid: WALLET_UUID,
    currency_uuid: EUR_UUID,
    amount: '20',
  },
  rrule: 'FREQ=MONTHLY',
  starts_at: '2026-12-01T09:00:00Z',
  ends_at: null,
  time_zone: 'Europe/Berlin',
  max_slippage_bps: null,
  reference_rate: null,
  status: 'ACTIVE',
  next_runs: ['2026-12-01T09:00:00Z', '2027-01-01T09:00:00Z'],
  recent_runs: [
    {
      id: '0190b0a4-0000-7000-8000-00000000ac02',
      occurrence_at: '2026-11-01T09:00:00Z',
      status: 'FAILED',
      reason: 'INSUFFICIENT_FUNDS',
      order_id: null,
      transfer_id: null,
      finished_at: '2026-11-01T09:00:01Z',
    },
  ],
  created_at: '2026-10-01T09:00:00Z',
  updated_at: '2026-10-01T09:00:00Z',
  ...overrides,
})

function renderSchedules(routes: Record<string, Route> = {}) {
  const api = mockApi({
    'GET /schedules': { body: aPage([aSchedule()]) },
    'GET /currencies': { body: aPage([EUR, BTC]) },
    'GET /wallets': { body: aPage([aWallet()]) },
    'GET /people/recent': {
      body: {
        data: [
          { user_id: ANNA, display_name: 'Anna S.', initial: 'A', last_at: '2026-11-01T00:00:00Z' },
        ],
      },
    },
    [`PATCH /schedules/${SCHEDULE}`]: { body: aSchedule({ status: 'PAUSED' }) },
    [`DELETE /schedules/${SCHEDULE}`]: { status: 204 },
    'POST /schedules': { status: 201, body: aSchedule() },
    ...routes,
  })
  return { api, ...renderApp(<SchedulesPage />, { path: '/schedules' }) }
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('scheduled payments', () => {
  it('says what each one does, how often, its next run and why a run failed', async () => {
    renderSchedules()
    const row = (await screen.findAllByRole('listitem'))[0]!
    expect(await within(row).findByText('€20.00 to Anna S.')).toBeInTheDocument()
    expect(within(row).getByText('Every month')).toBeInTheDocument()
    expect(within(row).getByText(/^Next: /)).toBeInTheDocument()
    expect(within(row).getByText(/^Failed · /)).toBeInTheDocument()
  })

  it('pauses, skips the next run, and deletes only after asking', async () => {
    const { api, user } = renderSchedules()
    await user.click(await screen.findByRole('button', { name: 'Pause' }))
    expect(api.to(`PATCH /schedules/${SCHEDULE}`).at(-1)!.body).toEqual({ paused: true })
    await user.click(screen.getByRole('button', { name: 'Skip the next one' }))
    expect(api.to(`PATCH /schedules/${SCHEDULE}`).at(-1)!.body).toEqual({ skip_next: true })

    await user.click(screen.getByRole('button', { name: 'Delete' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete this schedule?' })
    expect(api.to(`DELETE /schedules/${SCHEDULE}`)).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(api.to(`DELETE /schedules/${SCHEDULE}`)).toHaveLength(1)
  })

  it('resumes a paused one', async () => {
    const { api, user } = renderSchedules({
      'GET /schedules': { body: aPage([aSchedule({ status: 'PAUSED', next_runs: [] })]) },
    })
    await user.click(await screen.findByRole('button', { name: 'Resume' }))
    expect(api.to(`PATCH /schedules/${SCHEDULE}`).at(-1)!.body).toEqual({ paused: false })
  })

  it('sets up the preset: €50 of BTC every Monday at 09:00, local time', async () => {
    const { api, user } = renderSchedules({ 'GET /schedules': { body: aPage([]) } })
    await user.click(await screen.findByRole('button', { name: 'Set it up' }))
    const dialog = await screen.findByRole('dialog', { name: 'Buy €50.00 of BTC every Monday' })
    await user.click(within(dialog).getByRole('button', { name: 'Set it up' }))
    expect(await screen.findByText('Set up. The first buy is next Monday.')).toBeInTheDocument()
    const body = api.to('POST /schedules')[0]!.body as Record<string, unknown>
    expect(body).toMatchObject({
      kind: 'exchange',
      template: {
        wallet_uuid: WALLET_UUID,
        from_uuid: EUR_UUID,
        to_uuid: BTC.uuid,
        amount_from: '50',
      },
      rrule: 'FREQ=WEEKLY;BYDAY=MO',
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    })
    const first = new Date(body.starts_at as string)
    expect([first.getDay(), first.getHours(), first.getMinutes()]).toEqual([1, 9, 0])
    expect(first.getTime()).toBeGreaterThan(Date.now())
  })
})
