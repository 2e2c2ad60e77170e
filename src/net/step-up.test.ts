import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api } from './api.ts'
import { setStepUpHandler } from './step-up.ts'

/** A 403 STEP_UP_REQUIRED as the server sends it. */
const stepUpRequired = () =>
  new Response(
    JSON.stringify({
      type: 'https://docs.finplatform.dev/problems/step-up-required',
      title: 'Forbidden',
      status: 403,
      code: 'STEP_UP_REQUIRED',
      methods: ['passkey', 'otp'],
    }),
    { status: 403, headers: { 'content-type': 'application/problem+json' } },
  )
const created = () =>
  new Response(JSON.stringify({ id: 'key' }), {
    status: 201,
    headers: { 'content-type': 'application/json' },
  })

describe('the second look in the API client', () => {
  let stop: (() => void) | undefined
  afterEach(() => {
    stop?.()
    vi.unstubAllGlobals()
  })

  it('asks in place with the methods the server named, then makes the call again once', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(stepUpRequired()).mockResolvedValueOnce(created())
    vi.stubGlobal('fetch', fetch)
    const asked = vi.fn().mockResolvedValue(true)
    stop = setStepUpHandler(asked)
    await expect(api.v1.post('/developer/access/create', { name: 'k' })).resolves.toEqual({
      id: 'key',
    })
    expect(asked).toHaveBeenCalledWith(['passkey', 'otp'])
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(fetch.mock.calls[1]?.[1]).toMatchObject({ method: 'POST', body: '{"name":"k"}' })
  })

  it('a declined question fails with the server’s answer, and the call is not made again', async () => {
    const fetch = vi.fn().mockResolvedValue(stepUpRequired())
    vi.stubGlobal('fetch', fetch)
    stop = setStepUpHandler(async () => false)
    const failure = await api.v1.post('/developer/access/create', {}).catch((error) => error)
    expect(failure).toBeInstanceOf(ApiError)
    expect((failure as ApiError).code).toBe('STEP_UP_REQUIRED')
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('retries only once: a second STEP_UP_REQUIRED is the answer', async () => {
    const fetch = vi.fn().mockImplementation(async () => stepUpRequired())
    vi.stubGlobal('fetch', fetch)
    const asked = vi.fn().mockResolvedValue(true)
    stop = setStepUpHandler(asked)
    const failure = await api.v1.post('/developer/access/create', {}).catch((error) => error)
    expect((failure as ApiError).code).toBe('STEP_UP_REQUIRED')
    expect(asked).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('other refusals are never turned into a question', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(JSON.stringify({ status: 403, code: 'SESSION_REQUIRED', title: 'x' }), {
          status: 403,
        }),
      ),
    )
    const asked = vi.fn()
    stop = setStepUpHandler(asked)
    await expect(api.v1.post('/developer/access/create', {})).rejects.toBeInstanceOf(ApiError)
    expect(asked).not.toHaveBeenCalled()
  })
})
