import { onlineManager } from '@tanstack/react-query'
import { act, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiKeyWithSecret } from '../../../contract/developer.ts'
import { problem } from '../../../tests/support/mock-api.ts'
import {
  afterDeveloperTest,
  keyItem,
  LIST,
  NEW_SECRET,
  renderPage,
  VENDORS,
} from './developer-page-fixture.tsx'
import { anApiKey, aPage, SECRET, withSecret } from './test-builders.ts'

afterEach(afterDeveloperTest)

describe('the developer page', () => {
  it('lists each key with its role, prefix, state, last use and allowed addresses', async () => {
    renderPage([
      anApiKey(),
      anApiKey({
        id: '0190f2a0-0000-7000-8000-000000000003',
        name: 'Deploys',
        role: 'PRODUCTION',
        prefix: 'fpk_00000000000000aa',
        enabled: false,
        last_used_at: '2026-11-20T08:30:00.000Z',
        allowed_ips: ['203.0.113.0/24', '192.0.2.7'],
      }),
    ])
    const first = await keyItem()
    expect(first).toHaveTextContent('Read only')
    expect(first).toHaveTextContent('Active')
    expect(first).toHaveTextContent('fpk_0123456789abcdef_…')
    expect(first).toHaveTextContent('Last usedNever')
    expect(first).toHaveTextContent('Any address')
    const second = await keyItem('Deploys')
    expect(second).toHaveTextContent('Production')
    expect(second).toHaveTextContent('Disabled')
    expect(second).toHaveTextContent('Nov 20, 2026')
    expect(second).toHaveTextContent('203.0.113.0/24, 192.0.2.7')
    expect(within(second).getByRole('button', { name: 'Enable Deploys' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api/docs')
  })

  it('says when there are no keys yet', async () => {
    renderPage([])
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument()
  })

  it('shows a failed list in words, with a retry', async () => {
    let fail = true
    const { user } = renderPage([anApiKey()], {
      [LIST]: () => (fail ? problem(500, 'INTERNAL') : { body: aPage([anApiKey()]) }),
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side')
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await keyItem()).toBeInTheDocument()
  })

  it('lists the providers with their mode and health in words', async () => {
    renderPage()
    const table = await screen.findByRole('table', { name: 'Providers' })
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent))
    expect(rows.map((row) => row.slice(0, 4))).toEqual([
      ['Blockchains', 'sandbox', 'Sandbox', 'Working'],
      ['E-mail and SMS', 'smtp', 'Live', 'Slow'],
      ['Exchange rates', 'sandbox', 'Sandbox', 'Not answering'],
    ])
  })

  it('shows a failed provider list in words', async () => {
    renderPage([anApiKey()], { [VENDORS]: problem(503, 'UNAVAILABLE') })
    expect(await screen.findByRole('alert')).toHaveTextContent('briefly unavailable')
  })

  it('reads in Russian', async () => {
    renderPage([anApiKey()], {}, 'ru')
    expect(await screen.findByRole('heading', { name: 'Для разработчиков' })).toBeInTheDocument()
    expect(await keyItem()).toHaveTextContent('Только чтение')
    expect(await screen.findByRole('table', { name: 'Поставщики' })).toHaveTextContent('Работает')
  })

  it('offline, offers no key actions that need the server', async () => {
    renderPage()
    await keyItem()
    act(() => onlineManager.setOnline(false))
    expect(screen.getByRole('button', { name: 'Create a key' })).toBeDisabled()
    expect(
      screen.getByRole('button', { name: 'Rotate the secret of Accounting export' }),
    ).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Disable Accounting export' })).toBeDisabled()
  })
})

// The secret the builders use is shaped like a real one.
it('builds secrets shaped like the server’s', () => {
  expect(SECRET).toMatch(/^fpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
  expect(NEW_SECRET).toMatch(/^fpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
  expect(withSecret()).toMatchObject<Partial<ApiKeyWithSecret>>({ secret: SECRET })
})
