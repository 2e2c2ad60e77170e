import { resolve } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import type { TelegramUser } from '../../contract/telegram.ts'
import { signedInitData } from '../../server/domain/auth/telegram-test-support.ts'
import { CHAT_THEMES } from './demo-routes.ts'
import { TENANT_HEADERS } from './server-process.ts'

/*
 * The Mini App in Chromium. Telegram is played by the SDK's own
 * mockTelegramEnv (its IIFE build, injected before the app loads): the launch
 * parameters carry init data signed with the server's test bot token, and
 * every method the app calls on Telegram is recorded; events come back the
 * way Telegram sends them (window.Telegram.WebView.receiveEvent).
 */

export const SDK_IIFE = resolve('node_modules/@telegram-apps/sdk/dist/index.iife.js')

export const THEME: Record<string, string> = CHAT_THEMES.dark

export interface TelegramCall {
  name: string
  params: unknown
}

declare global {
  interface Window {
    __telegramCalls: TelegramCall[]
    telegramApps: { sdk: { mockTelegramEnv: (options: unknown) => void } }
    Telegram?: { WebView?: { receiveEvent: (name: string, data?: unknown) => void } }
  }
}

/** The launch parameters Telegram puts in the Mini App's URL hash. */
export const launchParamsOf = (
  user: TelegramUser,
  theme: Record<string, string> = THEME,
  client: { version: string; initData?: string } = { version: '8.0' },
  /** A direct link's `startapp` (`pr_<id>`, issue 32), which Telegram hands on as the start parameter. */
  start?: string,
) =>
  new URLSearchParams({
    tgWebAppData: client.initData ?? signedInitData({ user }),
    tgWebAppVersion: client.version,
    tgWebAppPlatform: 'tdesktop',
    tgWebAppThemeParams: JSON.stringify(theme),
    ...(start && { tgWebAppStartParam: start }),
  }).toString()

/**
 * A new page of `context` that opens as the Mini App launched by `user`, in
 * `theme`. `client` is an older one: the SDK's mock itself refuses launch data
 * without `signature`, so it is given the launch without the init data, and
 * the test opens the page at `/#<launch parameters>` as Telegram does.
 */
export async function openMiniApp(
  context: BrowserContext,
  user: TelegramUser,
  theme: Record<string, string> = THEME,
  client?: { version: string; initData: string },
  start?: string,
): Promise<Page> {
  const page = await context.newPage()
  const params = new URLSearchParams(launchParamsOf(user, theme, client, start))
  if (client) params.delete('tgWebAppData')
  const launchParams = params.toString()
  await page.addInitScript({ path: SDK_IIFE })
  await page.addInitScript(
    ({ launchParams, theme }) => {
      window.__telegramCalls = []
      const reply = (event: string, data: unknown) =>
        setTimeout(() => window.Telegram?.WebView?.receiveEvent(event, data))
      window.telegramApps.sdk.mockTelegramEnv({
        launchParams,
        onEvent([name, params]: [string, unknown]) {
          window.__telegramCalls.push({ name, params })
          if (name === 'web_app_request_viewport') {
            reply('viewport_changed', {
              height: innerHeight,
              width: innerWidth,
              is_expanded: true,
              is_state_stable: true,
            })
          }
          if (name === 'web_app_request_theme') reply('theme_changed', { theme_params: theme })
          if (name === 'web_app_request_safe_area') {
            reply('safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 })
          }
          if (name === 'web_app_request_content_safe_area') {
            reply('content_safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 })
          }
          // Telegram asks the person, who agrees: the file is downloading.
          if (name === 'web_app_request_file_download') {
            reply('file_download_requested', { status: 'downloading' })
          }
        },
      })
    },
    { launchParams, theme },
  )
  return page
}

export const telegramCalls = (page: Page) => page.evaluate(() => window.__telegramCalls)

export async function signUpWithTelegram(user: TelegramUser, baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v2/auth/sign-up/telegram`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'x-app-env': 'telegram', 'content-type': 'application/json' },
    body: JSON.stringify({ init_data: signedInitData({ user }), terms_accepted: true }),
  })
  if (response.status !== 201) {
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`)
  }
}
