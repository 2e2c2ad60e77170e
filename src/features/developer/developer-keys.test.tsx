import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { problem } from '../../../tests/support/mock-api.ts'
import {
  afterDeveloperTest,
  CREATE,
  keyItem,
  NEW_SECRET,
  ROTATE,
  renderPage,
  UPDATE,
} from './developer-page-fixture.tsx'
import { KEY_ID } from './test-builders.ts'

// Creating, rotating, editing and disabling a key.

afterEach(afterDeveloperTest)

describe('the developer page', () => {
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
})
