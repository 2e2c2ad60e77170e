import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it } from 'vitest'
import { mockApi } from '../../tests/support/mock-api.ts'
// biome-ignore lint/style/noRestrictedImports: the test plays an earlier sign-in, which wrote the vault
import { openTokenVault } from '../storage/token-vault.ts'
import { prefetchFirstScreen } from './boot.ts'

const vault = openTokenVault()

/** Answers held back until the test lets them go: what was asked before any answer came. */
function heldApi() {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const held = (body: unknown) => async () => {
    await gate
    return { body }
  }
  const api = mockApi({
    'GET /tenants/config': held({ name: 'Acme', default_display_currency: 'EUR' }),
    'GET /user': held({ id: 'u1' }),
    'GET /user/user-data': held({}),
    'GET /wallets': held({ data: [], total: 0 }),
    'GET /rates': held({ base: 'USD', rates: [] }),
    'GET /currencies': held({ data: [] }),
  })
  return { api, release }
}

afterEach(async () => {
  await vault.clear()
})

describe('the first screen’s reads at boot', () => {
  it('on home, asks for the configuration, the user, the wallets and the rates at once: one round trip', async () => {
    await vault.write({ access_token: 'a', refresh_token: 'r' })
    const { api, release } = heldApi()
    const queryClient = new QueryClient()

    const done = prefetchFirstScreen(queryClient, Promise.resolve(), '/')
    // Every read has left while none of them is answered.
    await expect
      .poll(() => api.calls.map((call) => `${call.method} ${call.path}`).sort())
      .toEqual([
        'GET /currencies',
        'GET /rates',
        'GET /tenants/config',
        'GET /user',
        'GET /user/user-data',
        'GET /wallets',
      ])
    release()
    await done
    expect(queryClient.getQueryData(['wallets', 'list'])).toEqual({ data: [], total: 0 })
  })

  it('reads the session while the cache is restored, and asks the moment it is in memory', async () => {
    const { api, release } = heldApi()
    let restore = () => {}
    const restored = new Promise<void>((resolve) => {
      restore = resolve
    })
    let reads = 0
    const signedIn = async () => {
      reads++
      return true
    }

    const done = prefetchFirstScreen(new QueryClient(), restored, '/', signedIn)
    expect(reads, 'read before the cache is in memory').toBe(1)
    await Promise.resolve()
    expect(api.calls).toEqual([])
    restore()
    await expect.poll(() => api.calls.length).toBe(6)
    expect(reads).toBe(1)
    release()
    await done
  })

  it('asks for the rates in the one base, whatever currency the person will see them in', async () => {
    await vault.write({ access_token: 'a', refresh_token: 'r' })
    const { api, release } = heldApi()
    const queryClient = new QueryClient()
    localStorage.setItem('displayCurrency', 'EUR')
    queryClient.setQueryData(['tenant', 'config'], { default_display_currency: 'GBP' })

    const done = prefetchFirstScreen(queryClient, Promise.resolve(), '/')
    await expect.poll(() => api.to('GET /rates').length).toBe(1)
    expect(api.to('GET /rates')[0]!.query.get('base')).toBe('USD')
    release()
    await done
    localStorage.clear()
  })

  it('elsewhere, asks only for what every screen needs', async () => {
    await vault.write({ access_token: 'a', refresh_token: 'r' })
    const { api, release } = heldApi()
    release()
    await prefetchFirstScreen(new QueryClient(), Promise.resolve(), '/cards')
    expect(api.calls.map((call) => call.path).sort()).toEqual(['/tenants/config', '/user'])
  })

  it('waits for the stored cache before it asks', async () => {
    await vault.write({ access_token: 'a', refresh_token: 'r' })
    const { api, release } = heldApi()
    release()
    let restore = () => {}
    const restored = new Promise<void>((resolve) => {
      restore = resolve
    })
    const done = prefetchFirstScreen(new QueryClient(), restored, '/cards')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(api.calls).toEqual([])
    restore()
    await done
    expect(api.calls).toHaveLength(2)
  })

  it('asks nothing for someone signed out', async () => {
    const { api, release } = heldApi()
    release()
    await prefetchFirstScreen(new QueryClient(), Promise.resolve(), '/')
    expect(api.calls).toEqual([])
  })
})
