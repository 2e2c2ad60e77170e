import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { address, databaseLabel, startBanner } from '../banner.ts'
import { loadConfig } from '../config.ts'
import { captureLogs, createTestApp, describeServer, headers } from '../test-support.ts'
import { LogDestination, levelOf, readableLine, redactSecrets } from './logger.ts'

const tempDir = () => mkdtempSync(join(tmpdir(), 'logger-'))

describe('secrets in what is logged', () => {
  it('replaces every field named like a secret, at any depth, in arrays and errors', () => {
    const failure = Object.assign(new Error('refused'), { password: 'hunter2', code: 'X' })
    const at = new Date('2026-01-01T00:00:00Z')
    const fields = {
      Authorization: 'Bearer abc',
      body: { a: { b: { c: { refresh_token: 'r', keep: 1 } } }, items: [{ cvv: '123' }, 'pan'] },
      err: failure,
      at,
    }
    expect(redactSecrets(fields)).toEqual({
      Authorization: '[redacted]',
      body: {
        a: { b: { c: { refresh_token: '[redacted]', keep: 1 } } },
        items: [{ cvv: '[redacted]' }, 'pan'],
      },
      err: {
        type: 'Error',
        message: 'refused',
        stack: failure.stack,
        password: '[redacted]',
        code: 'X',
      },
      at,
    })
    expect(fields.body.a.b.c.refresh_token).toBe('r')
    expect(failure.password).toBe('hunter2')
  })

  it('hands back the very object when nothing in it is secret: a request line is not copied', () => {
    const line = { http: { method: 'GET', path: '/api/v2/user', status: 200, ms: 1 } }
    expect(redactSecrets(line)).toBe(line)
  })
})

describe('the log destination', () => {
  it('writes lines in order, and flush() resolves once they are out', async () => {
    const path = join(tempDir(), 'out.log')
    const fd = openSync(path, 'w')
    const destination = new LogDestination({ fd })
    for (let i = 0; i < 1_000; i++) destination.write(`{"n":${i}}\n`)
    await destination.flush(5_000)
    closeSync(fd)
    const lines = readFileSync(path, 'utf8').trim().split('\n')
    expect(lines).toHaveLength(1_000)
    expect(lines.at(-1)).toBe('{"n":999}')
    expect(destination.dropped).toBe(0)
  })

  it('a descriptor that fails ends logging, never the caller: writes return at once and are counted', async () => {
    const fd = openSync(join(tempDir(), 'gone.log'), 'w')
    closeSync(fd) // EBADF from now on, as EPIPE would be for a closed pipe
    const destination = new LogDestination({ fd })
    expect(destination.write('{"a":1}\n')).toBe(true)
    await destination.flush(5_000)
    for (let i = 0; i < 100; i++) expect(destination.write('{"b":2}\n')).toBe(true)
    expect(destination.dropped).toBe(101)
    await destination.flush(1_000)
  })
})

describe('lines for a terminal', () => {
  it('reads as time, level, message, then the other fields; an error with its stack', () => {
    const time = new Date('2025-01-01T10:11:12Z').getTime()
    const line = readableLine(
      JSON.stringify({
        level: 30,
        time,
        pid: 1,
        hostname: 'h',
        reqId: 'req-1',
        msg: 'GET / 200 3 ms',
        http: {},
      }),
      false,
    )
    expect(line).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/ 200 3 ms\n$/)
    const failed = readableLine(
      JSON.stringify({
        level: 50,
        time,
        msg: 'job failed',
        job: 'j1',
        err: { stack: 'Error: x\n    at y' },
      }),
      false,
    )
    expect(failed).toMatch(/ERROR job failed job=j1\n {2}Error: x\n {6}at y\n$/)
    expect(levelOf('{"level":40,"msg":"x"}')).toBe(40)
  })
})

describe('the start banner', () => {
  const config = loadConfig({ DATA_DIR: tempDir() })

  it('says where to open the app, who can reach it, the database, the sandbox and the demo sign-in', () => {
    const banner = startBanner(config, 8080)
    expect(banner).toContain('http://localhost:8080')
    expect(banner).toContain('this machine only (set HOST=0.0.0.0 to open it to the network)')
    expect(banner).toContain(`embedded PGlite in ${config.dataDir}`)
    expect(banner).toContain('Sandbox       on')
    expect(banner).toMatch(/Demo sign-in {2}demo@finplatform\.local \/ \S+/)
    expect(banner).toContain('Telegram      Mini App off (set TELEGRAM_BOT_TOKEN to turn it on)')
    expect(banner.trim().split('\n').length).toBeLessThanOrEqual(8)
  })

  it('says the Mini App is on, and where the bot should point, when TELEGRAM_BOT_TOKEN is set', () => {
    const withBot = loadConfig({
      DATA_DIR: tempDir(),
      TELEGRAM_BOT_TOKEN: '123456:abc',
      PUBLIC_URL: 'https://app.example',
    })
    expect(startBanner(withBot, 8080)).toContain(
      "Telegram      Mini App on: point the bot's Mini App at https://app.example",
    )
  })

  it('names the network when HOST opens it, and never prints a database password', () => {
    expect(address('0.0.0.0', 80).reach).toBe('every network interface (HOST)')
    expect(address('10.0.0.5', 80).url).toBe('http://10.0.0.5:80')
    const label = databaseLabel({
      databaseUrl: 'postgres://app:s3cret@db.internal:5432/finplatform',
      dataDir: '/x',
    })
    expect(label).toBe('PostgreSQL at db.internal:5432/finplatform')
  })
})

describeServer('one log line per request', () => {
  let app: FastifyInstance
  const logs = captureLogs()
  beforeAll(async () => {
    app = await createTestApp({}, { logStream: logs.stream })
  })
  afterAll(() => app?.close())

  it('logs each answered request once, with its method, path (no query), status and time', async () => {
    logs.lines.length = 0
    await app.inject({ method: 'GET', url: '/api/v2/wallets?limit=5&secret=x', headers: headers() })
    await app.inject({ method: 'GET', url: '/api/v2/no-such-route', headers: headers() })
    const entries = logs.lines.map((line) => JSON.parse(line))
    const requests = entries.filter((entry) => entry.http)
    expect(requests).toHaveLength(2)
    expect(requests[0]).toMatchObject({
      level: 30,
      msg: expect.stringMatching(/^GET \/api\/v2\/wallets 401 \d+ ms$/),
      http: { method: 'GET', path: '/api/v2/wallets', status: 401 },
    })
    expect(requests[1].http).toMatchObject({ path: '/api/v2/no-such-route', status: 404 })
    expect(logs.lines.join('')).not.toContain('secret=x')
    expect(entries.map((entry) => entry.msg)).not.toContain('incoming request')
    expect(entries.map((entry) => entry.msg)).not.toContain('request completed')
  })

  it('keeps health checks that went well out of the info log', async () => {
    logs.lines.length = 0
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    expect(logs.lines).toEqual([])
  })
})
