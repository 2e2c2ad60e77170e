import { buildApp } from './app.ts'
import { address, databaseLabel, demoSignIn, startBanner } from './banner.ts'
import { loadConfig } from './config.ts'
import { LogDestination, levelOf, readableLine, stdoutIsTerminal } from './infra/logger.ts'

/** However the stop goes — requests in flight, a job in hand — the process is gone after this. */
const STOP_DEADLINE_MS = 10_000
/** What is left of the stop's time for the last log lines to reach stdout. */
const LOG_FLUSH_MS = 500

/**
 * Starts the server: config, logs, app, listen, banner — and stops it on
 * SIGINT/SIGTERM: new requests answer 503, requests and the job in hand get
 * until STOP_DEADLINE_MS to finish, then the process exits whatever is left.
 * A second signal exits at once. Nothing here waits on stdout: a reader that
 * went away cannot keep the process alive (infra/logger.ts).
 */
async function main() {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(78) // EX_CONFIG
  }

  // In a terminal, start-up chatter below a warning stays out of the way of
  // the banner; from the banner on, every line shows (infra/logger.ts).
  const terminal = stdoutIsTerminal()
  let started = false
  const logs = new LogDestination(
    terminal
      ? { format: (line) => (started || levelOf(line) >= 40 ? readableLine(line) : '') }
      : {},
  )
  const exit = async (code: number) => {
    await logs.flush(LOG_FLUSH_MS)
    process.exit(code)
  }

  const app = await buildApp(config, { logStream: logs })
  let stopping = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return void process.exit(1)
      stopping = true
      app.log.info({ signal }, 'stopping: finishing requests and jobs in hand')
      const deadline = setTimeout(() => {
        app.log.warn(`still busy after ${STOP_DEADLINE_MS / 1000} s: exiting anyway`)
        void exit(1)
      }, STOP_DEADLINE_MS - LOG_FLUSH_MS)
      app.close().then(
        () => {
          clearTimeout(deadline)
          app.log.info('stopped')
          void exit(0)
        },
        (error) => {
          clearTimeout(deadline)
          app.log.error({ err: error }, 'stop failed')
          void exit(1)
        },
      )
    })
  }

  await app.listen({ port: config.port, host: config.host })
  const port = (app.server.address() as { port: number }).port
  started = true
  if (terminal) {
    logs.write(startBanner(config, port))
  } else {
    const { url, reach } = address(config.host, port)
    app.log.info(
      { url, host: config.host, reach, sandbox: config.sandbox, database: databaseLabel(config) },
      `ready on ${url}`,
    )
    const demo = demoSignIn(config)
    if (demo) app.log.info(`Demo sign-in: ${demo}`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
