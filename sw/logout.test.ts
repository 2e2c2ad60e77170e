import { describe, expect, it, vi } from 'vitest'
import { sendEveryWindowTo, type WindowLike } from './logout.ts'

const aWindow = (overrides: Partial<WindowLike> = {}): WindowLike => ({
  url: 'http://localhost/wallets',
  navigate: vi.fn(async () => ({})),
  postMessage: vi.fn(),
  ...overrides,
})

describe('sendEveryWindowTo', () => {
  it('navigates the windows the worker controls', async () => {
    const controlled = aWindow()
    await sendEveryWindowTo([controlled], '/auth/logout')
    expect(controlled.navigate).toHaveBeenCalledWith('/auth/logout')
    expect(controlled.postMessage).not.toHaveBeenCalled()
  })

  it('tells a window it cannot navigate to go itself', async () => {
    const uncontrolled = aWindow({
      navigate: vi.fn(async () => {
        throw new TypeError('This service worker is not the client’s active service worker.')
      }),
    })
    const unreachable = aWindow({ navigate: vi.fn(async () => null) })
    await sendEveryWindowTo([uncontrolled, unreachable], '/auth/logout')
    for (const client of [uncontrolled, unreachable]) {
      expect(client.postMessage).toHaveBeenCalledWith({
        type: 'auth:logout',
        location: '/auth/logout',
      })
    }
  })

  it('leaves a window that is already at the logout location alone', async () => {
    const there = aWindow({ url: 'http://localhost/auth/logout' })
    await sendEveryWindowTo([there], '/auth/logout')
    expect(there.navigate).not.toHaveBeenCalled()
    expect(there.postMessage).not.toHaveBeenCalled()
  })
})
