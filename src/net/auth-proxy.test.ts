import { IDBFactory } from 'fake-indexeddb'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { DEMO_TENANT_ID } from '../../contract/tenancy.ts'
import { openRememberingVault } from '../storage/remembering-vault.ts'
import { writeUnannounced } from '../storage/test-support.ts'
import { openTokenVault, type Tokens, type TokenVault } from '../storage/token-vault.ts'
import {
  type AuthProxyDeps,
  createAuthProxy,
  INIT_DATA_HEADER,
  RETRIED_HEADER,
} from './auth-proxy.ts'
import type { NetConfig } from './config.ts'
import { memoryLocks } from './locks.ts'

const ORIGIN = 'http://localhost'
const config: NetConfig = {
  v1Base: '/api/v1',
  v2Base: '/api/v2',
  tenantId: DEMO_TENANT_ID,
  appEnv: 'web',
  logoutLocation: '/auth/logout',
  timeoutMs: 60_000,
}
const REFRESH_URL = `${ORIGIN}/api/v2/auth/refresh/refresh-token`

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const unauthorized = () => json(401, { status: 401, code: 'UNAUTHORIZED', title: 'Unauthorized' })
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Calls that answer a token pair, signed in or not. */
const TOKEN_ANSWERS = new Set([
  '/api/v2/auth/sign-in/password/email',
  '/api/v2/auth/password/reset/confirm',
])

/**
 * A stand-in for the API server: one valid access token at a time, rotating
 * refresh tokens, and a log of everything it was sent.
 */
function fakeServer(options: { refreshDelayMs?: number } = {}) {
  const server = {
    access: 'access-1',
    refresh: 'refresh-1',
    generation: 1,
    refreshCalls: 0,
    refuseRefresh: false,
    requests: [] as Request[],
    /** Paths that answer 401 whatever the token. */
    alwaysUnauthorized: new Set<string>(),
    onRequest: undefined as ((request: Request) => Promise<void> | void) | undefined,
    async fetch(request: Request): Promise<Response> {
      server.requests.push(request.clone())
      await server.onRequest?.(request)
      const url = new URL(request.url)
      if (request.url === REFRESH_URL) {
        server.refreshCalls++
        await delay(options.refreshDelayMs ?? 5)
        const body = (await request.json()) as { refresh_token: string }
        if (server.refuseRefresh || body.refresh_token !== server.refresh) return unauthorized()
        server.generation++
        server.access = `access-${server.generation}`
        server.refresh = `refresh-${server.generation}`
        return json(200, { access_token: server.access, refresh_token: server.refresh })
      }
      if (TOKEN_ANSWERS.has(url.pathname)) {
        return json(200, { access_token: server.access, refresh_token: server.refresh })
      }
      if (server.alwaysUnauthorized.has(url.pathname)) return unauthorized()
      if (url.pathname === '/api/v2/boom') return json(500, { status: 500, code: 'INTERNAL' })
      const expected = url.pathname.startsWith('/api/v2/')
        ? `Bearer ${server.access}`
        : server.access
      if (request.headers.get('authorization') !== expected) return unauthorized()
      return json(200, { path: url.pathname, body: await request.text() })
    },
    sentTo: (path: string) => server.requests.filter((r) => new URL(r.url).pathname === path),
  }
  return server
}

type Server = ReturnType<typeof fakeServer>

function setup(overrides: Partial<AuthProxyDeps> & { server?: Server; vault?: TokenVault } = {}) {
  const server = overrides.server ?? fakeServer()
  const vault = overrides.vault ?? openTokenVault()
  const onLogout = vi.fn<(location: string) => void>()
  const log = vi.fn()
  const proxy = createAuthProxy({
    config,
    vault,
    fetch: (request) => server.fetch(request),
    locks: memoryLocks(),
    onLogout,
    log,
    ...overrides,
  })
  const get = (path: string, init?: RequestInit) =>
    proxy.handle(new Request(`${ORIGIN}${path}`, init))
  return { server, vault, proxy, onLogout, log, get }
}

const signedIn = async (
  vault: TokenVault,
  tokens: Tokens = { access_token: 'access-1', refresh_token: 'refresh-1' },
) => vault.write(tokens)

beforeEach(() => {
  // Every test gets an empty IndexedDB: no vault leaks from one to the next.
  globalThis.indexedDB = new IDBFactory()
})

describe('headers', () => {
  it('adds tenant, app environment, JSON content type and a Bearer token on v2', async () => {
    const { server, vault, get } = setup()
    await signedIn(vault)
    const response = await get('/api/v2/user')
    expect(response.status).toBe(200)
    const sent = server.requests[0]!
    expect(sent.headers.get('x-tenant-id')).toBe(config.tenantId)
    expect(sent.headers.get('x-app-env')).toBe('web')
    expect(sent.headers.get('content-type')).toBe('application/json')
    expect(sent.headers.get('authorization')).toBe('Bearer access-1')
  })

  it('sends a string body as JSON even though the browser labelled it text/plain', async () => {
    const { server, get } = setup()
    await get('/api/v2/auth/sign-in/password/email', { method: 'POST', body: '{"a":1}' })
    expect(server.requests[0]!.headers.get('content-type')).toBe('application/json')
  })

  it('sends the raw access token on v1', async () => {
    const { server, vault, get } = setup()
    await signedIn(vault)
    expect((await get('/api/v1/fiat_accounts/1')).status).toBe(200)
    expect(server.requests[0]!.headers.get('authorization')).toBe('access-1')
  })

  it('sends no Authorization while no token is stored', async () => {
    const { server, get } = setup()
    await get('/api/v2/auth/sign-in/password/email', { method: 'POST', body: '{}' })
    expect(server.requests[0]!.headers.has('authorization')).toBe(false)
  })

  it('keeps the Mini App environment a request states', async () => {
    const { server, vault, get } = setup()
    await signedIn(vault)
    await get('/api/v2/user', { headers: { 'X-App-Env': 'telegram' } })
    expect(server.requests[0]!.headers.get('x-app-env')).toBe('telegram')
  })

  it('leaves requests outside the API bases untouched', async () => {
    const { server, vault, get } = setup()
    await signedIn(vault)
    await get('/assets/app.js')
    expect(server.requests[0]!.headers.has('authorization')).toBe(false)
    expect(server.requests[0]!.headers.has('x-tenant-id')).toBe(false)
  })

  it.each([
    '/api/v2/auth/sign-in/password/email',
    // A reset password signs the person in (issue 26).
    '/api/v2/auth/password/reset/confirm',
  ])('stores the token pair %s answers with', async (path) => {
    const { vault, get } = setup()
    await get(path, { method: 'POST', body: '{}' })
    expect(await vault.read()).toEqual({ access_token: 'access-1', refresh_token: 'refresh-1' })
  })
})

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

describe('the Mini App', () => {
  it('signs in again with the launch data when it has no refresh token', async () => {
    const server = fakeServer()
    const reauthenticate = vi.fn(async () => ({ access_token: server.access, refresh_token: null }))
    const { vault, get, onLogout } = setup({ server, reauthenticate })
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    const response = await get('/api/v2/user', { headers: { 'X-App-Env': 'telegram' } })
    expect(response.status).toBe(200)
    expect(reauthenticate).toHaveBeenCalledExactlyOnceWith('telegram')
    expect(server.refreshCalls).toBe(0)
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('signs out when signing in again fails', async () => {
    const { vault, get, onLogout } = setup({ reauthenticate: async () => undefined })
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    expect((await get('/api/v2/user', { headers: { 'X-App-Env': 'telegram' } })).status).toBe(401)
    expect(onLogout).toHaveBeenCalledOnce()
  })

  /** The fake server, plus a Telegram sign-in that accepts one init data string. */
  function withTelegramSignIn(validInitData: string) {
    const server = fakeServer()
    const signIns: Request[] = []
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname !== '/api/v2/auth/sign-in/telegram') {
        return server.fetch(request)
      }
      signIns.push(request.clone())
      const body = (await request.json()) as { init_data: string }
      if (body.init_data !== validInitData) {
        return json(401, { status: 401, code: 'TELEGRAM_INIT_DATA_INVALID' })
      }
      return json(200, { access_token: server.access, refresh_token: null })
    }
    return { server, signIns, fetch }
  }

  const telegramHeaders = (initData: string) => ({
    'X-App-Env': 'telegram',
    [INIT_DATA_HEADER]: initData,
  })

  it('signs in with the init data the request carries, replays, and never sends that header on', async () => {
    const { server, signIns, fetch } = withTelegramSignIn('query_id=1&hash=ok')
    const { vault, get, onLogout } = setup({ server, fetch })
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    const response = await get('/api/v2/user', { headers: telegramHeaders('query_id=1&hash=ok') })
    expect(response.status).toBe(200)
    expect(signIns).toHaveLength(1)
    expect(await signIns[0]!.json()).toEqual({ init_data: 'query_id=1&hash=ok' })
    expect(signIns[0]!.headers.get('x-app-env')).toBe('telegram')
    expect(signIns[0]!.headers.get('x-tenant-id')).toBe(config.tenantId)
    expect(server.refreshCalls).toBe(0)
    const [first, replay] = server.sentTo('/api/v2/user')
    expect(first!.headers.has(INIT_DATA_HEADER)).toBe(false)
    expect(replay!.headers.get('authorization')).toBe('Bearer access-1')
    expect(replay!.headers.has(INIT_DATA_HEADER)).toBe(false)
    expect(await vault.read()).toEqual({ access_token: 'access-1', refresh_token: null })
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('signs in once for many requests failing together', async () => {
    const { server, signIns, fetch } = withTelegramSignIn('ok')
    const { vault, get } = setup({ server, fetch })
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => get('/api/v2/user', { headers: telegramHeaders('ok') })),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(signIns).toHaveLength(1)
  })

  it('prefers the refresh token when there is one', async () => {
    const { server, signIns, fetch } = withTelegramSignIn('ok')
    const { vault, get } = setup({ server, fetch })
    await signedIn(vault, { access_token: 'expired', refresh_token: 'refresh-1' })
    expect((await get('/api/v2/user', { headers: telegramHeaders('ok') })).status).toBe(200)
    expect(server.refreshCalls).toBe(1)
    expect(signIns).toHaveLength(0)
  })

  it('signs out when the init data is refused', async () => {
    const { signIns, fetch, server } = withTelegramSignIn('ok')
    const { vault, get, onLogout } = setup({ server, fetch })
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    const response = await get('/api/v2/user', { headers: telegramHeaders('tampered') })
    expect(response.status).toBe(401)
    expect(signIns).toHaveLength(1)
    expect(await vault.read()).toBeUndefined()
    expect(onLogout).toHaveBeenCalledOnce()
  })

  it('does not use init data outside the Mini App', async () => {
    const { signIns, fetch, server } = withTelegramSignIn('ok')
    const { vault, get, onLogout } = setup({ server, fetch })
    await signedIn(vault, { access_token: 'expired', refresh_token: null })
    const response = await get('/api/v2/user', { headers: { [INIT_DATA_HEADER]: 'ok' } })
    expect(response.status).toBe(401)
    expect(signIns).toHaveLength(0)
    expect(onLogout).toHaveBeenCalledOnce()
  })
})

/** A network that never answers, like fetch it rejects when the request is aborted. */
const hanging = (request: Request) =>
  new Promise<Response>((_, reject) => {
    if (request.signal.aborted) reject(request.signal.reason)
    request.signal.addEventListener('abort', () => reject(request.signal.reason))
  })

describe('other failures', () => {
  it('logs other errors and passes them on without refresh or logout', async () => {
    const { server, vault, get, onLogout, log } = setup()
    await signedIn(vault)
    const response = await get('/api/v2/boom')
    expect(response.status).toBe(500)
    expect(server.refreshCalls).toBe(0)
    expect(onLogout).not.toHaveBeenCalled()
    expect(log).toHaveBeenCalledWith('request failed', expect.objectContaining({ status: 500 }))
    expect(await vault.read()).toBeDefined()
  })

  it('gives up after the timeout with a TimeoutError', async () => {
    const { get } = setup({ fetch: hanging, config: { ...config, timeoutMs: 50 } })
    await expect(get('/api/v2/user')).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  it('passes the caller’s cancellation on', async () => {
    const { get } = setup({ fetch: hanging })
    const controller = new AbortController()
    const pending = get('/api/v1/orders/calc', { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
