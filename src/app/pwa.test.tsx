import { QueryClient } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { I18nProvider } from '../i18n/i18n.tsx'

/** A stand-in for workbox-window: one instance, whose events the test fires. */
const workbox = vi.hoisted(() => {
  const listeners = new Map<string, Array<() => void>>()
  return {
    listeners,
    register: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(),
    addEventListener(type: string, listener: () => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener])
    },
    fire(type: string) {
      for (const listener of listeners.get(type) ?? []) listener()
    },
  }
})
vi.mock('workbox-window', () => ({
  Workbox: vi.fn(function Workbox() {
    return workbox
  }),
}))

const { registerServiceWorker, updateStore } = await import('./service-worker.ts')
const { afterFirstScreen, ScreenShown, UpdatePrompt } = await import('./pwa.tsx')

beforeEach(() => {
  updateStore.dismiss()
  workbox.listeners.clear()
  workbox.messageSkipWaiting.mockClear()
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: {} })
  vi.stubEnv('DEV', false)
})

describe('the update prompt', () => {
  it('appears when a new worker waits, and hands over on Update', async () => {
    await registerServiceWorker()
    render(
      <I18nProvider initial="en">
        <UpdatePrompt />
      </I18nProvider>,
    )
    expect(screen.queryByText('A new version is ready.')).toBeNull()
    act(() => workbox.fire('waiting'))
    // The toast is a chunk of its own, loaded when a worker first waits.
    expect(await screen.findByRole('status')).toHaveTextContent('A new version is ready.')
    await userEvent.click(screen.getByRole('button', { name: 'Update' }))
    expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce()
  })

  it('goes away on Later without switching', async () => {
    await registerServiceWorker()
    render(
      <I18nProvider initial="en">
        <UpdatePrompt />
      </I18nProvider>,
    )
    act(() => workbox.fire('waiting'))
    await userEvent.click(await screen.findByRole('button', { name: 'Later' }))
    expect(screen.queryByText('A new version is ready.')).toBeNull()
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled()
  })
})

describe('after the first screen', () => {
  it('runs once the first screen is shown and every read is answered, not before', async () => {
    const queryClient = new QueryClient()
    const first = vi.fn()
    afterFirstScreen(queryClient, first)
    await Promise.resolve()
    expect(first, 'nothing out, but no screen shown yet').not.toHaveBeenCalled()
    render(<ScreenShown />)
    expect(first).toHaveBeenCalledOnce()

    let answer = (_value: string) => {}
    const read = queryClient.fetchQuery({
      queryKey: ['wallets'],
      queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
    })
    const later = vi.fn()
    afterFirstScreen(queryClient, later)
    expect(later, 'shown, but a read still out').not.toHaveBeenCalled()
    answer('wallets')
    await read
    await vi.waitFor(() => expect(later).toHaveBeenCalledOnce())
  })
})
