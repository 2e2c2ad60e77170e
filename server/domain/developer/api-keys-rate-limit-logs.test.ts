import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import {
  captureLogs,
  createTestApp,
  describeServer,
  expectProblem,
  signUp,
} from '../../test-support.ts'
import { call, createKey, probes, read, rotateKey } from './api-keys-test-support.ts'

describeServer('developer API keys: rate limit and logs', () => {
  let app: FastifyInstance
  const logs = captureLogs()

  beforeAll(async () => {
    app = await createTestApp(
      { API_KEY_RATE_LIMIT_PER_MINUTE: '3' },
      { ...probes, logStream: logs.stream },
    )
  })
  afterAll(async () => {
    await app?.close()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('limits calls per key per minute with Retry-After, each key on its own', async () => {
    const pair = await signUp(app, { stepUp: true })
    const first = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const second = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const start = new Date(Date.now() + 7_200_000)
    start.setUTCSeconds(0, 0)
    vi.setSystemTime(start)
    for (let i = 0; i < 3; i++) expect((await read(app, first.secret)).statusCode).toBe(200)
    vi.setSystemTime(new Date(start.getTime() + 20_000))
    const limited = await read(app, first.secret)
    const problem = expectProblem(limited, 429, 'API_KEY_RATE_LIMITED')
    expect(limited.headers['retry-after']).toBe('40')
    expect(problem.retry_after).toBe(40)
    expect((await read(app, second.secret)).statusCode).toBe(200)

    vi.setSystemTime(new Date(start.getTime() + 60_000))
    expect((await read(app, first.secret)).statusCode).toBe(200)
  })

  it('never writes a key’s secret to the logs', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    await rotateKey(app, pair.access_token, { id: key.id, overlap_seconds: 60 })
    await read(app, key.secret)
    await call(app, key.secret, 'POST', '/api/v2/probe/write')
    await read(app, `${key.secret.slice(0, -1)}x`)
    const random = key.secret.slice(key.prefix.length + 1)
    expect(logs.lines.length).toBeGreaterThan(0)
    expect(logs.lines.join('\n')).not.toContain(random)
  })
})
