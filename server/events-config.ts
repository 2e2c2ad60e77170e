type Env = Record<string, string | undefined>

/** Issue 20: how events leave the server. Parsed with the rest of the config (config.ts). */
export interface EventsConfig {
  /**
   * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints);
   * unset: generated on first start into DATA_DIR/vapid.json and kept.
   */
  vapid: { publicKey: string; privateKey: string } | undefined
  /** VAPID_SUBJECT: a mailto: or https: contact push services may reach the sender at. */
  vapidSubject: string
  /**
   * Telegram bot messages: `api` sends through the Bot API at TELEGRAM_API_URL with
   * TELEGRAM_BOT_TOKEN; `sandbox` records them (GET /api/sandbox/outbox/telegram).
   * The Bot API is used when SANDBOX=false with a token, or whenever TELEGRAM_API_URL is set.
   */
  telegramBot: 'api' | 'sandbox'
  telegramApiUrl: string
  /** PUBLIC_URL: where people open the app (the bot's button; push links). */
  publicUrl: string
  /**
   * EVENTS_DISPATCH (default true): whether this process runs the dispatch and delivery jobs.
   * Events are written either way; false leaves their jobs to other processes (the server
   * tests of other areas set it, so their job runs meet only their own jobs).
   */
  dispatch: boolean
}

export function eventsConfig(env: Env, problems: string[], sandbox: boolean): EventsConfig {
  const publicKey = env.VAPID_PUBLIC_KEY || undefined
  const privateKey = env.VAPID_PRIVATE_KEY || undefined
  if (Boolean(publicKey) !== Boolean(privateKey)) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither')
  }
  const vapidSubject = env.VAPID_SUBJECT || 'mailto:no-reply@finplatform.local'
  if (!/^(mailto:|https:\/\/)/.test(vapidSubject)) {
    problems.push('VAPID_SUBJECT must be a mailto: or https:// URL')
  }
  const telegramApiUrl = (env.TELEGRAM_API_URL || 'https://api.telegram.org').replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]+/.test(telegramApiUrl)) {
    problems.push('TELEGRAM_API_URL must be an http(s) URL')
  }
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${env.PORT || 8080}`).replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL')
  const realBot = Boolean(env.TELEGRAM_BOT_TOKEN) && (!sandbox || Boolean(env.TELEGRAM_API_URL))
  const dispatchRaw = env.EVENTS_DISPATCH
  if (dispatchRaw && !/^(true|false|1|0)$/i.test(dispatchRaw)) {
    problems.push('EVENTS_DISPATCH must be true or false')
  }
  return {
    dispatch: !dispatchRaw || /^(true|1)$/i.test(dispatchRaw),
    vapid: publicKey && privateKey ? { publicKey, privateKey } : undefined,
    vapidSubject,
    telegramBot: realBot ? 'api' : 'sandbox',
    telegramApiUrl,
    publicUrl,
  }
}
