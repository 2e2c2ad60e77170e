import { beforeEach, describe, expect, it } from 'vitest'
import { openRememberingVault } from '../storage/remembering-vault.ts'
import { writeUnannounced } from '../storage/test-support.ts'
import { openTokenVault } from '../storage/token-vault.ts'
import { RETRIED_HEADER } from './auth-proxy.ts'
import { config, fakeServer, freshIndexedDb, setup, signedIn } from './auth-proxy-test-support.ts'
import { memoryLocks } from './locks.ts'

// A 401: one refresh, the request replayed once; or a sign-out when nothing can refresh.

beforeEach(freshIndexedDb)

describe('a 401 with a refresh token', () => {
  it('refreshes, stores the new pair and replays the request once, marked as retried', async () => {
    const { server, vault, get, onLogout } = setup()
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    const response = await get('/api/v2/user')
    expect(response.status).toBe(200)
    expect(server.refreshCalls).toBe(1)
    expect(await vault.read()).toEqual({ access_token: 'access-2', refresh_token: 'refresh-2' })
    const [first, replay] = server.sentTo('/api/v2/user')
    expect(first!.headers.has(RETRIED_HEADER)).toBe(false)
    expect(replay!.headers.get(RETRIED_HEADER)).toBe('1')
    expect(replay!.headers.get('authorization')).toBe('Bearer access-2')
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('replays the same body it sent the first time', async () => {
    const { server, vault, get } = setup()
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    const body = JSON.stringify({ amount: '12.50', note: 'дом' })
    const response = await get('/api/v2/wallets', { method: 'POST', body })
    expect(((await response.json()) as { body: string }).body).toBe(body)
    const sent = server.sentTo('/api/v2/wallets')
    expect(sent).toHaveLength(2)
    expect(await sent[0]!.text()).toBe(body)
    expect(await sent[1]!.text()).toBe(body)
  })

  it('runs one refresh for 50 concurrent 401s and replays each of the 50 once', async () => {
    const { server, vault, get } = setup({ server: fakeServer({ refreshDelayMs: 30 }) })
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => get(`/api/v2/items/${i}`)),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(server.refreshCalls).toBe(1)
    const replays = server.requests.filter((r) => r.headers.get(RETRIED_HEADER) === '1')
    expect(replays).toHaveLength(50)
    expect(new Set(replays.map((r) => r.url)).size).toBe(50)
  })

  it('skips the refresh when the tokens changed while it waited for the lock, and replays', async () => {
    const { server, vault, get } = setup()
    await signedIn(vault, { access_token: 'access-1', refresh_token: 'refresh-1' })
    // Another tab rotates the tokens while our request is on the wire.
    server.onRequest = async (request) => {
      if (new URL(request.url).pathname !== '/api/v2/user' || server.generation > 1) return
      server.generation = 2
      server.access = 'access-2'
      server.refresh = 'refresh-2'
      await vault.write({ access_token: 'access-2', refresh_token: 'refresh-2' })
    }
    const response = await get('/api/v2/user')
    expect(response.status).toBe(200)
    expect(server.refreshCalls).toBe(0)
    expect(server.sentTo('/api/v2/user')[1]!.headers.get('authorization')).toBe('Bearer access-2')
  })

  it('a worker that remembers stale tokens reads the vault again on a 401, and replays without a refresh', async () => {
    const { server, vault, get } = setup({ vault: openRememberingVault() })
    await signedIn(vault, { access_token: 'access-1', refresh_token: 'refresh-1' })
    // Another tab rotated the tokens; its announcement has not reached the worker yet.
    server.generation = 2
    server.access = 'access-2'
    server.refresh = 'refresh-2'
    await writeUnannounced({ access_token: 'access-2', refresh_token: 'refresh-2' })

    const response = await get('/api/v2/user')
    expect(response.status).toBe(200)
    // Refreshing with the remembered refresh-1 would be a reuse, which revokes the family.
    expect(server.refreshCalls).toBe(0)
    const sent = server.sentTo('/api/v2/user').map((r) => r.headers.get('authorization'))
    expect(sent).toEqual(['Bearer access-1', 'Bearer access-2'])
    expect(await vault.read()).toEqual({ access_token: 'access-2', refresh_token: 'refresh-2' })
  })

  it('refreshes once for two tabs sharing one vault', async () => {
    const server = fakeServer({ refreshDelayMs: 30 })
    const vault = openTokenVault()
    const locks = memoryLocks() // Web Locks are shared by every tab of an origin.
    const tabA = setup({ server, vault, locks })
    const tabB = setup({ server, vault: openTokenVault(), locks })
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    const responses = await Promise.all([
      ...Array.from({ length: 10 }, () => tabA.get('/api/v2/user')),
      ...Array.from({ length: 10 }, () => tabB.get('/api/v2/user')),
    ])
    expect(responses.every((r) => r.status === 200)).toBe(true)
    expect(server.refreshCalls).toBe(1)
    expect(tabA.onLogout).not.toHaveBeenCalled()
    expect(tabB.onLogout).not.toHaveBeenCalled()
  })
})

describe('sign-out instead of refresh', () => {
  it('wipes the tokens and goes to the logout location when a replay gets 401 again', async () => {
    const { server, vault, get, onLogout } = setup()
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    server.alwaysUnauthorized.add('/api/v2/user')
    const response = await get('/api/v2/user')
    expect(response.status).toBe(401)
    expect(server.refreshCalls).toBe(1)
    expect(server.sentTo('/api/v2/user')).toHaveLength(2)
    expect(await vault.read()).toBeUndefined()
    expect(onLogout).toHaveBeenCalledExactlyOnceWith('/auth/logout')
  })

  it('does so without a refresh when there is no refresh token outside the Mini App', async () => {
    const { server, vault, get, onLogout } = setup()
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    expect((await get('/api/v2/user')).status).toBe(401)
    expect(server.refreshCalls).toBe(0)
    expect(await vault.read()).toBeUndefined()
    expect(onLogout).toHaveBeenCalledExactlyOnceWith('/auth/logout')
  })

  it('does so when nothing is stored at all', async () => {
    const { server, get, onLogout } = setup()
    expect((await get('/api/v2/user')).status).toBe(401)
    expect(server.refreshCalls).toBe(0)
    expect(onLogout).toHaveBeenCalledOnce()
  })

  it('does so when the refresh call itself gets 401', async () => {
    const { server, vault, get, onLogout } = setup()
    await signedIn(vault)
    const response = await get('/api/v2/auth/refresh/refresh-token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: 'stolen' }),
    })
    expect(response.status).toBe(401)
    expect(server.refreshCalls).toBe(1) // the caller's own call, nothing more
    expect(await vault.read()).toBeUndefined()
    expect(onLogout).toHaveBeenCalledOnce()
  })

  it.each(['/api/v2/auth/sign-in/telegram', '/api/v2/auth/sign-up/telegram'])(
    'does so when %s fails, without trying a refresh',
    async (path) => {
      const { server, vault, get, onLogout } = setup()
      await signedIn(vault)
      server.alwaysUnauthorized.add(path)
      expect((await get(path, { method: 'POST', body: '{}' })).status).toBe(401)
      expect(server.refreshCalls).toBe(0)
      expect(onLogout).toHaveBeenCalledOnce()
    },
  )

  it('does so when the request was already retried', async () => {
    const { server, vault, get, onLogout } = setup()
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    const response = await get('/api/v2/user', { headers: { [RETRIED_HEADER]: '1' } })
    expect(response.status).toBe(401)
    expect(server.refreshCalls).toBe(0)
    expect(onLogout).toHaveBeenCalledOnce()
  })

  it('does so once for 20 requests when the refresh fails', async () => {
    const { server, vault, get, onLogout } = setup()
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    server.refuseRefresh = true
    const responses = await Promise.all(Array.from({ length: 20 }, () => get('/api/v2/user')))
    expect(responses.every((r) => r.status === 401)).toBe(true)
    expect(server.refreshCalls).toBe(1)
    expect(await vault.read()).toBeUndefined()
    expect(onLogout).toHaveBeenCalledOnce()
  })

  it('goes to the configured logout location', async () => {
    const { get, onLogout } = setup({ config: { ...config, logoutLocation: '/bye' } })
    await get('/api/v2/user')
    expect(onLogout).toHaveBeenCalledWith('/bye')
  })
})
