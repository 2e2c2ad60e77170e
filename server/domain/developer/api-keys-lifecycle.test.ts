import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import type { ApiKey, ApiKeyWithSecret } from '../../../contract/developer.ts'
import { createTestApp, describeServer, expectProblem, signUp } from '../../test-support.ts'
import {
  call,
  createKey,
  listKeys,
  probes,
  raw,
  read,
  rotateKey,
  withKey,
} from './api-keys-test-support.ts'

describeServer('developer API keys: created, changed, rotated, used', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({}, probes)
  })
  afterAll(async () => {
    await app?.close()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('creates a key whose secret is shown once and listed only by its prefix', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, {
      name: 'Reporting',
      role: 'READ_ONLY',
      allowed_ips: ['203.0.113.0/24', '192.0.2.7/32'],
    })
    expect(key).toMatchObject({
      name: 'Reporting',
      role: 'READ_ONLY',
      enabled: true,
      allowed_ips: ['203.0.113.0/24', '192.0.2.7'],
      last_used_at: null,
      previous_secret_expires_at: null,
    })
    expect(key.secret).toMatch(/^fpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(key.secret.startsWith(`${key.prefix}_`)).toBe(true)

    const listed = await listKeys(app, pair.access_token)
    const { secret: _, ...shown } = key
    expect(listed).toEqual([shown])
    expect(JSON.stringify(listed)).not.toContain(key.secret.slice(key.prefix.length + 1))
  })

  it('keeps no secret in clear: every stored column of keys and secrets is scanned', async () => {
    const pair = await signUp(app, { stepUp: true })
    const first = await createKey(app, pair.access_token, { role: 'DEVELOPER' })
    const rotated = await rotateKey(app, pair.access_token, { id: first.id, overlap_seconds: 600 })
    const second = rotated.json<ApiKeyWithSecret>()
    const { rows } = await sql<Record<string, unknown>>`
      select k.*, s.* from api_keys k join api_key_secrets s on s.api_key_id = k.id
      where k.id = ${first.id}`.execute(app.db)
    expect(rows).toHaveLength(2)
    const stored = JSON.stringify(rows)
    for (const secret of [first.secret, second.secret]) {
      const [, , random] = /^fpk_([0-9a-f]{16})_(.+)$/.exec(secret) as RegExpExecArray
      expect(stored).not.toContain(random)
    }
  })

  it('renames and re-roles a key, and answers 404 for another person’s', async () => {
    const pair = await signUp(app, { stepUp: true })
    const other = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const update = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/update',
      headers: raw(pair.access_token),
      payload: { id: key.id, name: 'Deploys', role: 'DEVELOPER' },
    })
    expect(update.json<ApiKey>()).toMatchObject({
      name: 'Deploys',
      role: 'DEVELOPER',
      enabled: true,
    })
    expect((await call(app, key.secret, 'POST', '/api/v2/probe/write')).statusCode).toBe(200)

    for (const url of ['/api/v1/developer/access/update', '/api/v1/developer/access/rotate']) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: raw(other.access_token),
        payload: { id: key.id, ...(url.endsWith('update') && { enabled: false }) },
      })
      expectProblem(response, 404, 'API_KEY_NOT_FOUND')
    }
    expect(await listKeys(app, other.access_token)).toEqual([])
    expect((await read(app, key.secret)).statusCode).toBe(200)
  })

  it('rotates with no overlap: the old secret stops at once', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const response = await rotateKey(app, pair.access_token, { id: key.id })
    expect(response.statusCode, response.body).toBe(200)
    const rotated = response.json<ApiKeyWithSecret>()
    expect(rotated).toMatchObject({ id: key.id, previous_secret_expires_at: null })
    expect(rotated.secret).not.toBe(key.secret)
    expect(rotated.prefix).not.toBe(key.prefix)
    expectProblem(await read(app, key.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, rotated.secret)).statusCode).toBe(200)
    expect((await listKeys(app, pair.access_token))[0]?.prefix).toBe(rotated.prefix)
  })

  it('rotates with an overlap: both secrets work until it ends, then only the new one', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const start = new Date()
    vi.setSystemTime(start)
    const response = await rotateKey(app, pair.access_token, { id: key.id, overlap_seconds: 300 })
    const rotated = response.json<ApiKeyWithSecret>()
    const ends = new Date(start.getTime() + 300_000)
    expect(rotated.previous_secret_expires_at).toBe(ends.toISOString())
    expect((await read(app, key.secret)).statusCode).toBe(200)
    expect((await read(app, rotated.secret)).statusCode).toBe(200)

    vi.setSystemTime(new Date(ends.getTime() - 1_000))
    expect((await read(app, key.secret)).statusCode).toBe(200)
    vi.setSystemTime(ends)
    expectProblem(await read(app, key.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, rotated.secret)).statusCode).toBe(200)
    expect((await listKeys(app, pair.access_token))[0]?.previous_secret_expires_at).toBeNull()
  })

  it('at most 25 enabled keys per person: one more is 409 API_KEY_LIMIT, also by enabling', async () => {
    const pair = await signUp(app, { stepUp: true })
    const keys: ApiKeyWithSecret[] = []
    for (let i = 0; i < 25; i++) {
      keys.push(await createKey(app, pair.access_token, { name: `key ${i}`, role: 'READ_ONLY' }))
    }
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: raw(pair.access_token),
        payload: { name: 'one too many', role: 'READ_ONLY' },
      })
    expectProblem(await create(), 409, 'API_KEY_LIMIT')
    const update = (id: string, enabled: boolean) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/developer/access/update',
        headers: raw(pair.access_token),
        payload: { id, enabled },
      })
    expect((await update(keys[0]!.id, false)).statusCode).toBe(200)
    const replacement = await create()
    expect(replacement.statusCode, replacement.body).toBe(201)
    // The disabled key cannot come back while 25 others are enabled.
    expectProblem(await update(keys[0]!.id, true), 409, 'API_KEY_LIMIT')
    // Another person has their own 25.
    const other = await signUp(app, { stepUp: true })
    expect((await createKey(app, other.access_token, { role: 'READ_ONLY' })).enabled).toBe(true)
  })

  it('a rotation with no overlap also stops an older secret still in its overlap', async () => {
    const pair = await signUp(app, { stepUp: true })
    const a = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const rotate = async (overlapSeconds: number) => {
      const response = await rotateKey(app, pair.access_token, {
        id: a.id,
        overlap_seconds: overlapSeconds,
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json<ApiKeyWithSecret>()
    }
    const b = await rotate(604_800)
    expect((await read(app, a.secret)).statusCode).toBe(200)
    // A leak: rotate now. Neither A (a week of overlap left) nor B may work any longer.
    const c = await rotate(0)
    expectProblem(await read(app, a.secret), 401, 'API_KEY_INVALID')
    expectProblem(await read(app, b.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, c.secret)).statusCode).toBe(200)
    expect(c.previous_secret_expires_at).toBeNull()
  })

  it('a shorter overlap cuts an older secret’s longer one down to it', async () => {
    const pair = await signUp(app, { stepUp: true })
    const a = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const start = new Date()
    vi.setSystemTime(start)
    const rotate = (overlapSeconds: number) =>
      rotateKey(app, pair.access_token, { id: a.id, overlap_seconds: overlapSeconds })
    await rotate(604_800)
    const c = (await rotate(60)).json<ApiKeyWithSecret>()
    expect(c.previous_secret_expires_at).toBe(new Date(start.getTime() + 60_000).toISOString())
    vi.setSystemTime(new Date(start.getTime() + 60_000))
    expectProblem(await read(app, a.secret), 401, 'API_KEY_INVALID')
    expect((await read(app, c.secret)).statusCode).toBe(200)
  })

  it('takes its default overlap from API_KEY_ROTATION_OVERLAP_SECONDS', async () => {
    const configured = await createTestApp({ API_KEY_ROTATION_OVERLAP_SECONDS: '120' })
    try {
      const pair = await signUp(configured, { stepUp: true })
      const key = await createKey(configured, pair.access_token, { role: 'READ_ONLY' })
      const before = Date.now()
      const response = await rotateKey(configured, pair.access_token, { id: key.id })
      const after = Date.now()
      // The server takes its clock inside the request: between our two readings.
      const ends = Date.parse(response.json<ApiKey>().previous_secret_expires_at ?? '')
      expect(ends).toBeGreaterThanOrEqual(before + 120_000)
      expect(ends).toBeLessThanOrEqual(after + 120_000)
      const old = await configured.inject({
        method: 'GET',
        url: '/api/v2/wallets',
        headers: withKey(key.secret),
      })
      expect(old.statusCode).toBe(200)
    } finally {
      await configured.close()
    }
  })

  it('records its last use, writing at most once a minute', async () => {
    const pair = await signUp(app, { stepUp: true })
    const key = await createKey(app, pair.access_token, { role: 'READ_ONLY' })
    const t0 = new Date(Date.now() + 120_000)
    const lastUsed = async () => (await listKeys(app, pair.access_token))[0]?.last_used_at

    vi.setSystemTime(t0)
    await read(app, key.secret)
    expect(await lastUsed()).toBe(t0.toISOString())
    vi.setSystemTime(new Date(t0.getTime() + 30_000))
    await read(app, key.secret)
    expect(await lastUsed()).toBe(t0.toISOString())
    const later = new Date(t0.getTime() + 61_000)
    vi.setSystemTime(later)
    await read(app, key.secret)
    expect(await lastUsed()).toBe(later.toISOString())
  })
})
