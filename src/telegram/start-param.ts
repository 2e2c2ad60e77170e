import { REQUEST_START_PREFIX } from '../../contract/display-rules.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** The request this tab already opened from its launch: a reload does not open it again. */
const OPENED_KEY = 'finplatform/telegram-start-opened'

/**
 * The payment request a Mini App launch names (`startapp=pr_<id>`): Telegram
 * puts the start parameter in the launch parameters (`tgWebAppStartParam`)
 * and in the signed init data (`start_param`). Undefined for any other
 * start, or an id that is not one.
 */
export function requestOfLaunch(raw: string): string | undefined {
  const params = new URLSearchParams(raw.replace(/^[#?]/, ''))
  const start =
    params.get('tgWebAppStartParam') ??
    new URLSearchParams(params.get('tgWebAppData') ?? '').get('start_param')
  if (!start?.startsWith(REQUEST_START_PREFIX)) return undefined
  const id = start.slice(REQUEST_START_PREFIX.length)
  return UUID.test(id) ? id : undefined
}

/**
 * Whether the launch's request is still to be opened in this tab, noting
 * that it is: the launch is kept for reloads, and a reload must leave the
 * person where they were, not send them back to the request.
 */
export function firstOpening(storage: Storage | undefined, id: string): boolean {
  try {
    if (storage?.getItem(OPENED_KEY) === id) return false
    storage?.setItem(OPENED_KEY, id)
  } catch {
    // Storage refused: open it; a reload might open it again, which is harmless.
  }
  return true
}
