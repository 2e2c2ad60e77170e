import { write as fsWrite } from 'node:fs'
import { isatty } from 'node:tty'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'

/**
 * # Logs
 *
 * One line per request, JSON (pino) when stdout is a file or a pipe, a short
 * readable line when it is a terminal. Credentials never reach them: headers
 * that carry tokens, and any field named like a secret at any depth we log.
 *
 * Logging can never stall the server or its stop. Lines go to stdout through
 * LogDestination: asynchronous writes, one at a time, from a queue with a
 * ceiling (past it lines are dropped and counted, never buffered without
 * end), and a pipe that fails (EPIPE: the reader went away) ends logging
 * rather than the process. Nothing is ever written synchronously — pino's
 * own stdout stream flushes synchronously at exit, and on a closed pipe that
 * flush retried EPIPE forever: a server stopped while a client had closed its
 * end of our stdout never exited (issue 17).
 */
/** Fields named like a secret, at any depth of what we log (compared lower-case). */
export const SECRET_FIELDS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-telegram-init-data',
  'init_data',
  'password',
  'access_token',
  'refresh_token',
  'pan',
  'cvv',
  'encrypted_key',
])

const CENSOR = '[redacted]'
/** Deeper than this a logged object is printed as it is (nothing we log nests so far). */
const MAX_DEPTH = 8

/**
 * A line's fields with every field named like a secret replaced, at any depth;
 * the object itself, uncopied, when it holds none — the common case: a
 * request's line is `{ http: { method, path, status, ms } }`. (pino's path
 * redaction walked 22 paths with wildcards for every line: 7 % of an
 * authenticated call.) An error holding a secret becomes a plain copy.
 */
export function redactSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  return redacted(fields, 0) as Record<string, unknown>
}

function redacted(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const next = redacted(value[i], depth + 1)
      if (next === value[i]) continue
      copy ??= value.slice()
      copy[i] = next
    }
    return copy ?? value
  }
  const prototype = Object.getPrototypeOf(value)
  const isError = value instanceof Error
  if (prototype !== Object.prototype && prototype !== null && !isError) return value
  const record = value as Record<string, unknown>
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(record)) {
    const field = record[key]
    const next = SECRET_FIELDS.has(key.toLowerCase()) ? CENSOR : redacted(field, depth + 1)
    if (next === field) continue
    copy ??= isError ? errorFields(value as Error) : { ...record }
    copy[key] = next
  }
  return copy ?? value
}

const errorFields = (error: Error): Record<string, unknown> => ({
  ...error,
  type: error.name,
  message: error.message,
  stack: error.stack,
})

/** Queued bytes past which new lines are dropped (a reader that stopped reading). */
const MAX_QUEUED = 4 * 1024 * 1024
const RETRY_MS = 50

/**
 * A non-blocking line sink on a file descriptor (stdout by default). It has
 * the one method pino needs, `write`, which never throws and never waits.
 */
export class LogDestination {
  readonly #fd: number
  readonly #format: ((line: string) => string) | undefined
  #queue: string[] = []
  #queued = 0
  #writing = false
  #closed = false
  #dropped = 0
  #idle: (() => void)[] = []

  constructor(options: { fd?: number; format?: (line: string) => string } = {}) {
    this.#fd = options.fd ?? 1
    this.#format = options.format
  }

  /** Lines lost to a full queue or a closed descriptor. */
  get dropped(): number {
    return this.#dropped
  }

  write(line: string): boolean {
    if (this.#closed) {
      this.#dropped++
      return true
    }
    const text = this.#format ? this.#format(line) : line
    if (text === '') return true
    if (this.#queued + text.length > MAX_QUEUED) {
      this.#dropped++
      return true
    }
    this.#queue.push(text)
    this.#queued += text.length
    if (!this.#writing) this.#next()
    return true
  }

  #next() {
    if (this.#closed || this.#queue.length === 0) {
      this.#writing = false
      for (const resolve of this.#idle.splice(0)) resolve()
      return
    }
    this.#writing = true
    const data = Buffer.from(this.#queue.join(''))
    this.#queue = []
    this.#queued = 0
    this.#send(data)
  }

  #send(data: Buffer) {
    fsWrite(this.#fd, data, 0, data.length, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN' || error.code === 'EINTR') {
          // A non-blocking pipe that is full: try again soon, the event loop stays free.
          setTimeout(() => this.#send(data), RETRY_MS).unref()
          return
        }
        // EPIPE, EBADF…: nobody will read another line. Stop logging, keep serving.
        this.#closed = true
        this.#dropped += this.#queue.length + 1
        this.#queue = []
        this.#queued = 0
        this.#next()
        return
      }
      if (written < data.length) return this.#send(data.subarray(written))
      this.#next()
    })
  }

  /** Resolves once the queue is written, the descriptor failed, or `timeoutMs` passed. */
  flush(timeoutMs: number): Promise<void> {
    if (!this.#writing) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs)
      timer.unref()
      this.#idle.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
}
const COLOURS: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[31m' }
const DIM = '\u001b[2m'
const RESET = '\u001b[0m'
/** Fields every line has, or that the readable line already says. */
const QUIET = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'plugin', 'http'])

/**
 * One pino JSON line as a person reads it in a terminal:
 * `14:02:11 INFO  GET /api/v2/wallets 200 12 ms` — other fields as
 * `key=value` after the message, an error's stack below it.
 */
export function readableLine(json: string, colour = true): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(json)
  } catch {
    return json
  }
  const level = Number(entry.level)
  const time = new Date(Number(entry.time)).toTimeString().slice(0, 8)
  const label = LEVELS[level] ?? String(entry.level)
  const extras = Object.entries(entry)
    .filter(([key]) => !QUIET.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
  const err = entry.err as { stack?: string; message?: string } | undefined
  const paint = (code: string | undefined, text: string) =>
    colour && code ? `${code}${text}${RESET}` : text
  let line = `${paint(DIM, time)} ${paint(COLOURS[level], label)} ${String(entry.msg ?? '')}`
  if (extras.length > 0) line += ` ${paint(DIM, extras.join(' '))}`
  if (err) line += `\n  ${(err.stack ?? err.message ?? '').replaceAll('\n', '\n  ')}`
  return `${line}\n`
}

/** A pino line's level, read without parsing the whole line. */
export const levelOf = (line: string) => Number(/"level":(\d+)/.exec(line)?.[1] ?? 30)

/** Whether stdout is a terminal: readable lines there, JSON to files and pipes. */
export const stdoutIsTerminal = () => isatty(1)

/** The logger options of the app; `stream` replaces stdout (tests capture it). */
export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream | LogDestination,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    formatters: { log: redactSecrets },
    stream:
      stream ??
      new LogDestination(stdoutIsTerminal() ? { format: (line) => readableLine(line, true) } : {}),
  }
}

const quietPath = /^\/(?!api\/)/

/**
 * One line per request, when it is answered: `GET /api/v2/wallets 200 12 ms`
 * (the path only: a query can hold what a person typed). Fastify's own pair
 * ("incoming request", "request completed") is off (app.ts). The built app's
 * files, health checks and metrics that went well are debug-level: a page
 * load is dozens of them.
 */
export const requestLog = fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onResponse', async (request, reply) => {
      const path = request.url.split('?')[0] ?? request.url
      const status = reply.statusCode
      const ms = Math.round(reply.elapsedTime)
      const fields = { http: { method: request.method, path, status, ms } }
      const message = `${request.method} ${path} ${status} ${ms} ms`
      if (status < 400 && quietPath.test(path)) request.log.debug(fields, message)
      else request.log.info(fields, message)
    })
  },
  { name: 'request-log' },
)
