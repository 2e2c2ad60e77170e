import { beforeEach, describe, expect, it, vi } from 'vitest'
import { INIT_DATA_HEADER } from './auth-proxy.ts'
import {
  config,
  fakeServer,
  freshIndexedDb,
  json,
  setup,
  signedIn,
} from './auth-proxy-test-support.ts'

// The Mini App signs in again with its launch data instead of refreshing.

beforeEach(freshIndexedDb)

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
