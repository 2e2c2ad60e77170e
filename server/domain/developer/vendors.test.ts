import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { SMTPServer } from 'smtp-server'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { VendorList } from '../../../contract/developer.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { DEGRADED_MS, smtpProbe, TIMEOUT_MS, type VendorProbe, VendorRegistry } from './vendors.ts'

const probe = (overrides: Partial<VendorProbe>): VendorProbe => ({
  kind: 'kyc',
  name: 'test',
  mode: 'sandbox',
  check: async () => {},
  ...overrides,
})

describe('the vendor registry', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('says up, degraded or down from what each check does, in the kinds’ order', async () => {
    const registry = new VendorRegistry()
    registry.register(
      probe({ kind: 'rates', name: 'fails', check: () => Promise.reject(new Error('x')) }),
    )
    registry.register(probe({ kind: 'chain', name: 'answers' }))
    registry.register(
      probe({ kind: 'banking', name: 'says degraded', check: async () => 'degraded' }),
    )
    const vendors = await registry.list()
    expect(vendors.map(({ kind, name, health }) => ({ kind, name, health }))).toEqual([
      { kind: 'chain', name: 'answers', health: 'up' },
      { kind: 'banking', name: 'says degraded', health: 'degraded' },
      { kind: 'rates', name: 'fails', health: 'down' },
    ])
    for (const vendor of vendors) expect(Date.parse(vendor.checked_at)).not.toBeNaN()
  })

  it('calls an answer slower than DEGRADED_MS (or the threshold it is given) degraded', async () => {
    vi.useFakeTimers()
    const answersAfter = (ms: number, name: string) =>
      probe({ name, check: () => new Promise((resolve) => setTimeout(resolve, ms)) })
    const registry = new VendorRegistry()
    registry.register(answersAfter(DEGRADED_MS, 'in time'))
    registry.register(answersAfter(DEGRADED_MS + 1, 'late'))
    const listed = registry.list()
    await vi.advanceTimersByTimeAsync(DEGRADED_MS + 1)
    expect((await listed).map(({ name, health }) => [name, health])).toEqual([
      ['in time', 'up'],
      ['late', 'degraded'],
    ])

    const patient = new VendorRegistry({ degradedMs: 3_000 })
    patient.register(answersAfter(3_000, 'in time'))
    patient.register(answersAfter(3_001, 'late'))
    const listedPatiently = patient.list()
    await vi.advanceTimersByTimeAsync(3_001)
    expect((await listedPatiently).map(({ name, health }) => [name, health])).toEqual([
      ['in time', 'up'],
      ['late', 'degraded'],
    ])
  })

  it('calls no answer within the timeout down', async () => {
    vi.useFakeTimers()
    const registry = new VendorRegistry()
    registry.register(probe({ check: () => new Promise(() => {}) }))
    const listed = registry.list()
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS)
    expect((await listed)[0]?.health).toBe('down')
  })

  it('keeps a result for 30 seconds, then checks again', async () => {
    let calls = 0
    const registry = new VendorRegistry()
    registry.register(probe({ check: async () => void calls++ }))
    const start = Date.now()
    vi.setSystemTime(start)
    await registry.list()
    await registry.list()
    expect(calls).toBe(1)
    vi.setSystemTime(start + 30_000)
    await registry.list()
    expect(calls).toBe(2)
  })
})

describe('the SMTP probe', () => {
  let server: SMTPServer
  let port: number
  beforeAll(async () => {
    server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('is up when the server greets it, down when nothing listens', async () => {
    // Real sockets on a busy machine: only "no answer" counts here, not a slow one.
    const registry = new VendorRegistry({ degradedMs: TIMEOUT_MS })
    registry.register(smtpProbe(`smtp://127.0.0.1:${port}`))
    registry.register({ ...smtpProbe('smtp://127.0.0.1:1'), name: 'nowhere' })
    expect(
      (await registry.list()).map((vendor) => [vendor.name, vendor.mode, vendor.health]),
    ).toEqual([
      ['smtp', 'live', 'up'],
      ['nowhere', 'live', 'down'],
    ])
  })
})

describeServer('GET /api/v1/developer/vendors/list', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // The probes do real I/O (queries, the rates' latency) on a busy machine: "up" here means
    // they answered, however slowly; the 1 s threshold is tested on fake timers above.
    app = await createTestApp({}, { vendorDegradedMs: TIMEOUT_MS })
  })
  afterAll(async () => {
    await app?.close()
  })

  it('lists the sandbox deployment’s providers, each checked and up', async () => {
    const pair = await signUp(app)
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/developer/vendors/list',
      headers: headers({ authorization: pair.access_token }),
    })
    expect(response.statusCode, response.body).toBe(200)
    const list = response.json<VendorList>()
    expect(list.data.map(({ kind, name, mode, health }) => ({ kind, name, mode, health }))).toEqual(
      [
        { kind: 'chain', name: 'sandbox', mode: 'sandbox', health: 'up' },
        { kind: 'card_processor', name: 'sandbox', mode: 'sandbox', health: 'up' },
        { kind: 'banking', name: 'sandbox', mode: 'sandbox', health: 'up' },
        { kind: 'kyc', name: 'sandbox', mode: 'sandbox', health: 'up' },
        { kind: 'messaging', name: 'sandbox', mode: 'sandbox', health: 'up' },
        { kind: 'rates', name: 'sandbox', mode: 'sandbox', health: 'up' },
      ],
    )
    expect(list).toMatchObject({ total: 6, offset: 0, is_last_page: true })
  })

  it('shows a provider an area registers, and its failure', async () => {
    app.vendors.register({
      kind: 'kyc',
      name: 'broken',
      mode: 'live',
      check: () => Promise.reject(new Error('unreachable')),
    })
    const pair = await signUp(app)
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/developer/vendors/list',
      headers: headers({ authorization: pair.access_token }),
    })
    expect(response.json<VendorList>().data).toContainEqual(
      expect.objectContaining({ kind: 'kyc', name: 'broken', mode: 'live', health: 'down' }),
    )
  })

  it('needs a signed-in caller', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/developer/vendors/list',
      headers: headers(),
    })
    expectProblem(response, 401, 'UNAUTHORIZED')
  })
})
