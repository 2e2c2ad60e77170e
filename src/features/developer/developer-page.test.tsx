import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiKey, ApiKeyWithSecret } from '../../../contract/developer.ts'
import { type Call, mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import type { Language } from '../../i18n/i18n.tsx'
import DeveloperPage from './developer-page.tsx'
import { KEYS_PAGE } from './queries.ts'
import { anApiKey, aPage, aPageOf, aVendor, KEY_ID, SECRET, withSecret } from './test-builders.ts'

const LIST = 'GET /developer/access/list'
const CREATE = 'POST /developer/access/create'
const ROTATE = 'POST /developer/access/rotate'
const UPDATE = 'POST /developer/access/update'
const VENDORS = 'GET /developer/vendors/list'
const NEW_SECRET = 'fpk_fedcba9876543210_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210_-zyxwv'

const VENDOR_ROWS = [
  aVendor({ kind: 'chain' }),
  aVendor({ kind: 'messaging', name: 'smtp', mode: 'live', health: 'degraded' }),
  aVendor({ kind: 'rates', health: 'down' }),
]

/** The page against a small server that keeps its keys. */
function renderPage(
  keys: ApiKey[] = [anApiKey()],
  routes: Record<string, Route> = {},
  language: Language = 'en',
) {
  let stored = keys
  const save = (key: ApiKey) => {
    stored = [key, ...stored.filter((other) => other.id !== key.id)]
  }
  const api = mockApi({
    [LIST]: (call: Call) => ({ body: aPageOf(stored, call.query) }),
    [VENDORS]: { body: aPage(VENDOR_ROWS) },
    [CREATE]: (call: Call) => {
      const body = call.body as { name: string; role: ApiKey['role']; allowed_ips: string[] }
      const key = anApiKey({
        id: '0190f2a0-0000-7000-8000-000000000002',
        name: body.name,
        role: body.role,
        allowed_ips: body.allowed_ips,
        prefix: 'fpk_fedcba9876543210',
      })
      save(key)
      return { status: 201, body: withSecret(key, NEW_SECRET) }
    },
    [ROTATE]: (call: Call) => {
      const { overlap_seconds } = call.body as { overlap_seconds: number }
      const key = {
        ...anApiKey(),
        prefix: 'fpk_fedcba9876543210',
        previous_secret_expires_at: overlap_seconds ? '2026-11-22T11:00:00.000Z' : null,
      }
      save(key)
      return { body: withSecret(key, NEW_SECRET) }
    },
    [UPDATE]: (call: Call) => {
      const { id, ...changes } = call.body as Partial<ApiKey> & { id: string }
      const key = { ...(stored.find((other) => other.id === id) as ApiKey), ...changes }
      save(key)
      return { body: key }
    },
    ...routes,
  })
  return { api, ...renderApp(<DeveloperPage />, { path: '/developer', language }) }
}

const keyId = (n: number) => `0190f2a0-0000-7000-8000-${String(n).padStart(12, '0')}`

/** `count` keys, newest first as the server lists them: "Key 1" … "Key <count>". */
const manyKeys = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    anApiKey({
      id: keyId(index + 1),
      name: `Key ${index + 1}`,
      prefix: `fpk_${(index + 1).toString(16).padStart(16, '0')}`,
    }),
  )

const keyItem = async (name = 'Accounting export') =>
  (await screen.findByRole('heading', { name, level: 3 })).closest('li') as HTMLElement

afterEach(() => {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
})

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

  it('creates a key and shows its secret once, with a copy button, a warning and a confirmation', async () => {
    const { api, user, queryClient } = renderPage([])
    await user.click(await screen.findByRole('button', { name: 'Create a key' }))
    const form = screen.getByRole('form', { name: 'New API key' })
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), ' CI deploys ')
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'DEVELOPER')
    expect(within(form).getByText(/in production it moves no money/)).toBeInTheDocument()
    await user.type(
      within(form).getByRole('textbox', { name: 'Allowed IP addresses (optional)' }),
      '203.0.113.7{Enter}198.51.100.0/24',
    )
    await user.click(within(form).getByRole('button', { name: 'Create key' }))

    const reveal = await screen.findByRole('region', { name: 'Your new key “CI deploys”' })
    expect(api.to(CREATE).map((call) => call.body)).toEqual([
      { name: 'CI deploys', role: 'DEVELOPER', allowed_ips: ['203.0.113.7', '198.51.100.0/24'] },
    ])
    expect(within(reveal).getByText(NEW_SECRET)).toBeInTheDocument()
    expect(within(reveal).getByText(/only time the key is shown/)).toBeInTheDocument()
    await user.click(within(reveal).getByRole('button', { name: 'Copy the key' }))
    expect(await navigator.clipboard.readText()).toBe(NEW_SECRET)
    expect(await keyItem('CI deploys')).toBeInTheDocument()

    const done = within(reveal).getByRole('button', { name: 'Done' })
    expect(done).toBeDisabled()
    await user.click(within(reveal).getByRole('checkbox', { name: 'I have saved the key' }))
    await user.click(done)
    expect(screen.queryByText(NEW_SECRET)).toBeNull()
    // Nothing kept it: not the query cache (which persists), not the finished mutation.
    await waitFor(() => expect(queryClient.getMutationCache().getAll()).toHaveLength(0))
    expect(
      JSON.stringify(
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
      ),
    ).not.toContain(NEW_SECRET)
  })

  it('needs a name before sending', async () => {
    const { api, user } = renderPage([])
    await user.click(await screen.findByRole('button', { name: 'Create a key' }))
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      expect.stringContaining('This field is required.'),
    )
    expect(api.to(CREATE)).toHaveLength(0)
  })

  it('names the line of an address the server refused', async () => {
    const { user } = renderPage([], {
      [CREATE]: problem(422, 'VALIDATION_FAILED', {
        errors: [{ field: '/body/allowed_ips/1', message: 'not an address' }],
      }),
    })
    await user.click(await screen.findByRole('button', { name: 'Create a key' }))
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Reports')
    await user.type(
      screen.getByRole('textbox', { name: 'Allowed IP addresses (optional)' }),
      '10.0.0.1{Enter}office',
    )
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    await waitFor(() =>
      expect(
        screen.getByRole('textbox', { name: 'Allowed IP addresses (optional)' }),
      ).toHaveAccessibleDescription(
        expect.stringContaining('Line 2 is not an IP address or network.'),
      ),
    )
    expect(screen.queryByRole('region', { name: /Your new key/ })).toBeNull()
  })

  it('rotates after a confirmation, with the overlap chosen, and shows the new secret once', async () => {
    const { api, user } = renderPage()
    await user.click(
      within(await keyItem()).getByRole('button', {
        name: 'Rotate the secret of Accounting export',
      }),
    )
    const dialog = await screen.findByRole('dialog', {
      name: 'Rotate the secret of “Accounting export”?',
    })
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'The current secret' }),
      'Keeps working for 1 hour',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }))
    const reveal = await screen.findByRole('region', {
      name: 'The new secret of “Accounting export”',
    })
    expect(api.to(ROTATE).map((call) => call.body)).toEqual([{ id: KEY_ID, overlap_seconds: 3600 }])
    expect(within(reveal).getByText(NEW_SECRET)).toBeInTheDocument()
    expect(within(reveal).getByText(/previous secret keeps working until/)).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('creates or rotates no other key while a secret is still on screen', async () => {
    const { api, user } = renderPage()
    await user.click(await screen.findByRole('button', { name: 'Create a key' }))
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Second')
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    const reveal = await screen.findByRole('region', { name: 'Your new key “Second”' })

    const create = screen.getByRole('button', { name: 'Create a key' })
    expect(create).toBeDisabled()
    expect(create).toHaveAccessibleDescription(/Save the secret shown above/)
    expect(
      within(await keyItem()).getByRole('button', {
        name: 'Rotate the secret of Accounting export',
      }),
    ).toBeDisabled()
    expect(api.to(ROTATE)).toHaveLength(0)

    await user.click(within(reveal).getByRole('checkbox', { name: 'I have saved the key' }))
    await user.click(within(reveal).getByRole('button', { name: 'Done' }))
    expect(screen.getByRole('button', { name: 'Create a key' })).toBeEnabled()
    expect(
      within(await keyItem()).getByRole('button', {
        name: 'Rotate the secret of Accounting export',
      }),
    ).toBeEnabled()
  })

  it('rotates nothing when the question is cancelled', async () => {
    const { api, user } = renderPage()
    await user.click(
      within(await keyItem()).getByRole('button', {
        name: 'Rotate the secret of Accounting export',
      }),
    )
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.to(ROTATE)).toHaveLength(0)
  })

  it('renames and re-roles a key, sending only what changed', async () => {
    const { api, user } = renderPage()
    await user.click(
      within(await keyItem()).getByRole('button', { name: 'Edit Accounting export' }),
    )
    const form = screen.getByRole('form', { name: 'Edit Accounting export' })
    const name = within(form).getByRole('textbox', { name: 'Name' })
    await user.clear(name)
    await user.type(name, 'Reporting')
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'PRODUCTION')
    await user.click(within(form).getByRole('button', { name: 'Save' }))
    const renamed = await keyItem('Reporting')
    expect(api.to(UPDATE).map((call) => call.body)).toEqual([
      { id: KEY_ID, name: 'Reporting', role: 'PRODUCTION' },
    ])
    expect(renamed).toHaveTextContent('Production')
    expect(screen.queryByRole('form', { name: /Edit/ })).toBeNull()
  })

  it('disables a key only after a confirmation, and enables it in one click', async () => {
    const { api, user } = renderPage()
    await user.click(
      within(await keyItem()).getByRole('button', { name: 'Disable Accounting export' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Disable “Accounting export”?' })
    expect(within(dialog).getByText(/stops working at once/)).toBeInTheDocument()
    // The safe answer has the focus; cancelling sends nothing.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.to(UPDATE)).toHaveLength(0)

    await user.click(
      within(await keyItem()).getByRole('button', { name: 'Disable Accounting export' }),
    )
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable key' }),
    )
    await waitFor(async () => expect(await keyItem()).toHaveTextContent('Disabled'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await user.click(
      within(await keyItem()).getByRole('button', { name: 'Enable Accounting export' }),
    )
    await waitFor(async () => expect(await keyItem()).toHaveTextContent('Active'))
    expect(api.to(UPDATE).map((call) => call.body)).toEqual([
      { id: KEY_ID, enabled: false },
      { id: KEY_ID, enabled: true },
    ])
  })

  /*
   * A list past one page puts hundreds of rows on screen, where each role query
   * (accessible names, visibility of every element) takes a while in happy-dom:
   * these tests find by text and query by role only inside one row, and their
   * waits are generous. Nothing in them is timed.
   */
  const LONG = { timeout: 30_000 }
  const moreButton = (name = 'Show more keys') =>
    screen.findByText(name, { selector: 'button' }, LONG)
  const rowOf = async (name: string) =>
    (await screen.findByText(name, { selector: 'h3' }, LONG)).closest('li') as HTMLElement
  const rowCount = () => document.querySelectorAll('.dev-keys > li').length

  it('reads a long list a page at a time, down to the last key, which can be disabled', {
    timeout: 120_000,
  }, async () => {
    const keys = manyKeys(250)
    const { api, user } = renderPage(keys)

    await screen.findByText('100 of 250 keys', { selector: 'p' }, LONG)
    expect(rowCount()).toBe(100)
    await user.click(await moreButton())
    await screen.findByText('200 of 250 keys', { selector: 'p' }, LONG)
    await user.click(await moreButton())
    const last = await rowOf('Key 250')
    expect(rowCount()).toBe(250)
    expect(screen.queryByText('Show more keys', { selector: 'button' })).toBeNull()
    expect(screen.queryByText(/of 250 keys/, { selector: 'p' })).toBeNull()
    expect(api.to(LIST).map((call) => call.query.get('offset'))).toEqual(['0', '100', '200'])
    expect(api.to(LIST).map((call) => call.query.get('limit'))).toEqual(
      Array(3).fill(String(KEYS_PAGE)),
    )

    await user.click(within(last).getByRole('button', { name: 'Disable Key 250' }))
    const dialog = within(last).getByRole('dialog', { name: 'Disable “Key 250”?' })
    await user.click(within(dialog).getByRole('button', { name: 'Disable key' }))
    // Every page loaded is read again, so the last key shows its new state.
    await waitFor(async () => expect(await rowOf('Key 250')).toHaveTextContent('Disabled'), LONG)
    expect(api.to(UPDATE).map((call) => call.body)).toEqual([{ id: keys[249]!.id, enabled: false }])
  })

  it('shows a key once when a key created elsewhere pushes it onto the next page', {
    timeout: 60_000,
  }, async () => {
    let stored = manyKeys(101)
    const { user } = renderPage([], {
      [LIST]: (call: Call) => ({ body: aPageOf(stored, call.query) }),
    })
    await screen.findByText('100 of 101 keys', { selector: 'p' }, LONG)
    stored = [anApiKey({ id: keyId(0), name: 'Made elsewhere' }), ...stored]
    await user.click(await moreButton())
    await rowOf('Key 101')
    expect(screen.getAllByText('Key 100', { selector: 'h3' })).toHaveLength(1)
    expect(rowCount()).toBe(101)
  })

  it('moves focus to the first key of the page read, though the button goes with the last page', {
    timeout: 60_000,
  }, async () => {
    const { user } = renderPage(manyKeys(101))
    await user.click(await moreButton())
    const first = await screen.findByText('Key 101', { selector: 'h3' }, LONG)
    await waitFor(() => expect(first).toHaveFocus(), LONG)
    expect(screen.queryByText('Show more keys', { selector: 'button' })).toBeNull()
    // Focused from script only: the heading is not a stop on the Tab key.
    expect(first).toHaveAttribute('tabindex', '-1')
  })

  it('says when the next page failed, keeps what is shown, and tries again', {
    timeout: 60_000,
  }, async () => {
    let fail = true
    const { user } = renderPage([], {
      [LIST]: (call: Call) =>
        fail && call.query.get('offset') !== '0'
          ? problem(500, 'INTERNAL')
          : { body: aPageOf(manyKeys(101), call.query) },
    })
    await user.click(await moreButton())
    expect(await screen.findByRole('alert', {}, LONG)).toHaveTextContent(
      'Something went wrong on our side',
    )
    expect(rowCount()).toBe(100)
    fail = false
    await user.click(await moreButton('Try again'))
    await rowOf('Key 101')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByText(/Show more keys|Try again/, { selector: 'button' })).toBeNull()
  })

  it('says the next page is on its way while it loads', { timeout: 60_000 }, async () => {
    let answer: (() => void) | undefined
    const { user } = renderPage([], {
      [LIST]: async (call: Call) => {
        if (call.query.get('offset') !== '0') await new Promise<void>((done) => (answer = done))
        return { body: aPageOf(manyKeys(101), call.query) }
      },
    })
    await user.click(await moreButton())
    const loading = await moreButton('Loading more keys…')
    expect(loading).toBeDisabled()
    expect(loading).toHaveAttribute('aria-busy', 'true')
    await waitFor(() => expect(answer).toBeDefined(), LONG)
    answer?.()
    await rowOf('Key 101')
  })

  it('offline, shows the keys it has but reads no more', { timeout: 60_000 }, async () => {
    renderPage(manyKeys(101))
    const more = await moreButton()
    act(() => onlineManager.setOnline(false))
    expect(more).toBeDisabled()
    expect(more).toHaveAccessibleDescription('You are offline. This needs a connection.')
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
