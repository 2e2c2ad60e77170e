import { beforeEach, describe, expect, it } from 'vitest'
import { config, freshIndexedDb, setup, signedIn } from './auth-proxy-test-support.ts'

beforeEach(freshIndexedDb)

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
