import pg from 'pg'

/** What a process hears on a channel, and when it may have stopped hearing it. */
export interface ChannelListener {
  /** Every notification from now on is heard (after a start, or after a loss). */
  listening(): void
  /** Notifications may go unheard until the next listening(). */
  lost(error?: Error): void
  notification(payload: string): void
}

/** Milliseconds before each try to listen again, the last repeated. */
const BACKOFF_MS = [50, 100, 250, 500, 1_000, 2_000, 5_000]
/**
 * A link that died without a word (a cable, a firewall's forgotten flow) would
 * otherwise pass for a quiet one: the connection is asked something this often,
 * and counts as lost when it takes longer than HEARTBEAT_TIMEOUT_MS to answer.
 */
const HEARTBEAT_MS = 5_000
const HEARTBEAT_TIMEOUT_MS = 3_000

/**
 * LISTEN on a connection of its own, straight to the primary: PgBouncer's
 * transaction pooling hands each transaction another server connection, so a
 * LISTEN through it hears nothing. Tries again with backoff whenever the
 * connection is lost (a restart, pg_terminate_backend, a dead link), telling
 * `on` each loss and each return.
 */
export function listenPostgres(
  url: string,
  channel: string,
  on: ChannelListener,
  /** The connection's application_name: which process listens, in pg_stat_activity. */
  name: string,
): { close(): Promise<void> } {
  let client: pg.Client | undefined
  let closed = false
  let attempt = 0
  let retry: NodeJS.Timeout | undefined
  let heartbeat: NodeJS.Timeout | undefined

  const dropped = (which: pg.Client, error?: Error) => {
    if (which !== client || closed) return
    client = undefined
    clearInterval(heartbeat)
    which.end().catch(() => {})
    on.lost(error)
    retry = setTimeout(connect, BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)])
  }

  const beat = (which: pg.Client) => {
    const timeout = setTimeout(
      () => dropped(which, new Error(`no answer in ${HEARTBEAT_TIMEOUT_MS} ms`)),
      HEARTBEAT_TIMEOUT_MS,
    )
    which
      .query('select 1')
      .catch((error: Error) => dropped(which, error))
      .finally(() => clearTimeout(timeout))
  }

  async function connect() {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: name })
    client = next
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) {
        on.notification(message.payload)
      }
    })
    next.on('error', (error) => dropped(next, error))
    next.on('end', () => dropped(next))
    try {
      await next.connect()
      await next.query(`listen ${channel}`)
    } catch (error) {
      return dropped(next, error as Error)
    }
    if (client !== next) return
    attempt = 0
    heartbeat = setInterval(() => beat(next), HEARTBEAT_MS)
    heartbeat.unref()
    on.listening()
  }

  void connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      clearInterval(heartbeat)
      const last = client
      client = undefined
      await last?.end().catch(() => {})
    },
  }
}
