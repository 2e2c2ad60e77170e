import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'

/** Starts the server: config, app, listen, and a graceful stop on SIGINT/SIGTERM. */
async function main() {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(78) // EX_CONFIG
  }

  const app = await buildApp(config)
  let closing = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (closing) return
      closing = true
      app.log.info({ signal }, 'shutting down')
      await app.close()
      process.exit(0)
    })
  }

  await app.listen({ port: config.port, host: config.host })
  const url = `http://localhost:${(app.server.address() as { port: number }).port}`
  app.log.info(
    { url, sandbox: config.sandbox, database: config.databaseUrl ? 'postgres' : 'pglite' },
    `ready on ${url}`,
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
