// `npm run screenshots`: every screen of the app with the sandbox demo, at a
// phone's and a desktop's size, light and dark, in English and Russian (or any
// of the ten languages: --languages ar,fa,uk), into
// .screens/<language>-<theme>-<size>/<screen>.png (git ignores it), plus the
// Mini App, an exchange's review step and home with amounts hidden. With --readme it also writes the
// README's four (their first screenful) into docs/screens/.
//
//   npm run screenshots                      # a fresh server of its own, every screen
//   npm run screenshots -- --only home,card  # some screens (route names of src/paths.ts)
//   npm run screenshots -- --url http://127.0.0.1:8080   # a server already running (sandbox)
//   npm run screenshots -- --sizes phone --themes light --languages en
//   npm run screenshots -- --languages ar,fa,uk --themes light   # right to left too
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { LANGUAGES, type Language } from '../contract/languages.ts'
import {
  launchUser,
  signedInitData,
  TEST_BOT_TOKEN,
} from '../server/domain/auth/telegram-test-support.ts'
import {
  CHAT_THEMES,
  controlDeclineUrl,
  DEMO,
  type DemoUrl,
  demoUrls,
  PASSING,
  SIGNED_OUT,
  settle,
  settledPaymentUrl,
  signInAsDemo,
  VIEWPORTS,
  visit,
} from '../tests/support/demo-routes.ts'
import { launchBrowser, startServer, TENANT_HEADERS } from '../tests/support/server-process.ts'
import { ensureBuilt } from './build-state.mjs'

const SIZES = VIEWPORTS
type Size = keyof typeof SIZES
/**
 * The browser's locale for each language: the app picks its language from the
 * browser's (src/i18n/i18n.tsx detectLanguage) when nothing is stored, as a
 * person's first visit does.
 */
const LOCALES: Record<Language, string> = {
  en: 'en-US',
  ru: 'ru-RU',
  uk: 'uk-UA',
  de: 'de-DE',
  es: 'es-ES',
  'pt-BR': 'pt-BR',
  tr: 'tr-TR',
  id: 'id-ID',
  fa: 'fa-IR',
  ar: 'ar-EG',
}
/** The Mini App's Telegram user, named as someone reading the language would be. */
const FIRST_NAMES: Partial<Record<Language, string>> = {
  ru: 'Анна',
  uk: 'Олена',
  fa: 'سارا',
  ar: 'ليلى',
}
/** A payment request's note, as that person would write it. */
const NOTES: Partial<Record<Language, string>> = {
  ru: 'Билеты',
  uk: 'Квитки',
  fa: 'بلیت',
  ar: 'تذاكر',
}
type Theme = 'light' | 'dark'

const OUT = resolve('.screens')
const README = resolve('docs/screens')
/** The README's screens, by the folder and screen they are taken from. */
const README_SCREENS: Record<string, string> = {
  'en-light-desktop/home': 'home.png',
  'en-light-phone/card': 'card.png',
  'en-light-phone/exchangeReview': 'exchange-review.png',
  'en-dark-phone/miniApp': 'mini-app.png',
}

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    only: { type: 'string' },
    sizes: { type: 'string', default: 'phone,desktop' },
    themes: { type: 'string', default: 'light,dark' },
    languages: { type: 'string', default: 'en,ru' },
    readme: { type: 'boolean', default: false },
  },
})
const list = <T extends string>(text: string | undefined) => (text ?? '').split(',') as T[]
const languages = list<Language>(values.languages)
const unknown = languages.filter((language) => !LANGUAGES.includes(language))
if (unknown.length > 0) {
  throw new Error(`--languages: ${unknown.join(', ')} unknown; one of ${LANGUAGES.join(', ')}`)
}
/** "25.50" as a person reading `language` types it ("25,50" in Russian or German). */
const typedAmount = (language: Language) =>
  new Intl.NumberFormat(LOCALES[language], {
    minimumFractionDigits: 2,
    numberingSystem: 'latn',
  }).format(25.5)
const only = values.only ? new Set(list<string>(values.only)) : undefined
const wanted = (name: string) => !only || only.has(name)

/**
 * The whole screen in one picture: the viewport is stretched to the page's
 * height first, so the tab bar and other fixed parts sit where a person sees
 * them (at the bottom), not where the first screenful ended.
 */
async function shoot(page: Page, folder: string, name: string) {
  mkdirSync(folder, { recursive: true })
  // No hover left over from the last click.
  await page.mouse.move(0, 0)
  // The README's four are what a person sees first: one screenful.
  const readme = values.readme && README_SCREENS[`${folder.split('/').at(-1)}/${name}`]
  if (readme) {
    mkdirSync(README, { recursive: true })
    await page.screenshot({ path: join(README, readme) })
  }
  const viewport = page.viewportSize()!
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) })
  await page.waitForTimeout(100)
  await page.screenshot({ path: join(folder, `${name}.png`) })
  await page.setViewportSize(viewport)
}

/** The exchange form filled in and sent to its review step. */
async function exchangeReview(page: Page, urls: DemoUrl[]) {
  const wallet = urls
    .find((route) => route.name === 'wallet')!
    .url.split('/')
    .at(-1)
  await visit(page, `/exchange?wallet=${wallet}`)
  const from = page.locator('.order-pair select').first()
  const usdt = await from.evaluate(
    (select: HTMLSelectElement) =>
      [...select.options].find((option) => option.text.startsWith('USDT'))?.value ?? '',
  )
  await from.selectOption(usdt)
  await page.locator('.order-amounts input').first().fill('100')
  await page.locator('form button[type=submit]').first().click()
  await page.locator('#order-review-title').waitFor({ timeout: 15_000 })
  await settle(page, 250)
}

/**
 * A forgotten password's three steps (the sign-in screen's `?reset=password`):
 * the contact, the code, the new password with its meter. Never confirmed:
 * the demo keeps its password.
 */
async function passwordReset(page: Page, base: string, folder: string, written: string[]) {
  const steps = ['passwordReset', 'passwordResetCode', 'passwordResetNew']
  const take = async (index: number) => {
    await settle(page, 250)
    await shoot(page, folder, steps[index]!)
    written.push(join(folder, steps[index]!))
  }
  await page.goto(`${base}/auth/sign-in?reset=password`)
  await take(0)
  await page.locator('input[type=email]').fill(DEMO.email)
  await page.locator('form button[type=submit]').first().click()
  await page.locator('input[autocomplete=one-time-code]').fill('123456')
  await page.locator('input[autocomplete=new-password]').fill('Orbit-Lantern-Maple-42')
  await take(2)
  await page.locator('section[aria-labelledby=reset-password-title] > p .button-quiet').click()
  await take(1)
}

/** The Mini App as Telegram opens it, the SDK's mock environment playing Telegram. */
async function openMiniApp(
  browser: Browser,
  base: string,
  size: Size,
  language: Language,
  theme: Theme,
) {
  const palette = CHAT_THEMES[theme]
  const user = launchUser({
    first_name: FIRST_NAMES[language] ?? 'Ada',
    language_code: language,
  })
  const signUp = await fetch(`${base}/api/v2/auth/sign-up/telegram`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'x-app-env': 'telegram', 'content-type': 'application/json' },
    body: JSON.stringify({ init_data: signedInitData({ user }), terms_accepted: true }),
  })
  if (signUp.status !== 201) throw new Error(`Telegram sign-up answered ${signUp.status}`)
  const context = await browser.newContext({
    viewport: SIZES[size],
    locale: LOCALES[language],
    colorScheme: theme,
    serviceWorkers: 'block',
  })
  const page = await context.newPage()
  if (process.env.DEBUG_SCREENS)
    page.on('console', (m) => console.log('miniApp console:', m.text()))
  const launchParams = new URLSearchParams({
    tgWebAppData: signedInitData({ user }),
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(palette),
  }).toString()
  await page.addInitScript({ path: resolve('node_modules/@telegram-apps/sdk/dist/index.iife.js') })
  // A script as text: a function would arrive transpiled, and esbuild's name
  // helpers it may carry do not exist in the page.
  await page.addInitScript(`
    const reply = (event, data) => setTimeout(() => window.Telegram?.WebView?.receiveEvent(event, data))
    window.telegramApps.sdk.mockTelegramEnv({
      launchParams: ${JSON.stringify(launchParams)},
      onEvent([name]) {
        if (name === 'web_app_request_theme') reply('theme_changed', { theme_params: ${JSON.stringify(palette)} })
        if (name === 'web_app_request_viewport') {
          reply('viewport_changed', { height: innerHeight, width: innerWidth, is_expanded: true, is_state_stable: true })
        }
      },
    })
  `)
  await page.goto(`${base}/#${launchParams}`)
  await settle(page, 250)
  return { context, page }
}

async function main() {
  let base = values.url
  let stop: (() => Promise<void>) | undefined
  if (!base) {
    await ensureBuilt()
    const server = await startServer({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN, LOG_LEVEL: 'error' })
    base = server.url
    stop = server.stop
  }
  const browser = await launchBrowser()
  const written: string[] = []
  try {
    const urls = await demoUrls(base)
    // Named only: the decline it makes would show in every other screen's recent activity.
    const controlDecline = only?.has('controlDecline') ? await controlDeclineUrl(base) : undefined
    for (const language of languages) {
      for (const theme of list<Theme>(values.themes)) {
        for (const size of list<Size>(values.sizes)) {
          const folder = join(OUT, `${language}-${theme}-${size}`)
          const context: BrowserContext = await browser.newContext({
            viewport: SIZES[size],
            locale: LOCALES[language],
            colorScheme: theme,
            serviceWorkers: 'block',
          })
          const page = await context.newPage()
          for (const route of urls.filter((r) => SIGNED_OUT.includes(r.name) && wanted(r.name))) {
            await page.goto(`${base}${route.url}`)
            await settle(page, 250)
            await shoot(page, folder, route.name)
            written.push(join(folder, route.name))
          }
          if (wanted('passwordReset')) await passwordReset(page, base, folder, written)
          const request = urls.find((route) => route.name === 'paymentRequest')
          if (request && wanted('paymentRequestSignedOut')) {
            // Issue 32: a payment request's link opened by someone signed out.
            await page.goto(`${base}${request.url}`)
            await settle(page, 250)
            await shoot(page, folder, 'paymentRequestSignedOut')
            written.push(join(folder, 'paymentRequestSignedOut'))
          }
          await signInAsDemo(page, base)
          for (const route of urls) {
            if (SIGNED_OUT.includes(route.name) || PASSING.includes(route.name)) continue
            if (!wanted(route.name)) continue
            await visit(page, route.url)
            await shoot(page, folder, route.name)
            written.push(join(folder, route.name))
          }
          if (wanted('notFound')) {
            await visit(page, '/no-such-screen')
            await shoot(page, folder, 'notFound')
          }
          if (wanted('securityPassword')) {
            // The security screen's password form, open and half filled in.
            await visit(page, '/profile/security')
            await page.locator('#password button').click()
            await page.locator('#password input[autocomplete=new-password]').fill('Orbit-Lan')
            await shoot(page, folder, 'securityPassword')
            written.push(join(folder, 'securityPassword'))
          }
          // Home with a device's flag set: every amount hidden, as one tap on the eye leaves it
          // (issue 31); Latin digits chosen on the profile (issue 34, by name only).
          for (const flag of ['hiddenAmounts', 'latinDigits'] as const) {
            if (flag === 'hiddenAmounts' ? !wanted(flag) : !only?.has(flag)) continue
            const key = flag === 'hiddenAmounts' ? 'amountsHidden' : flag
            await page.evaluate((name) => localStorage.setItem(name, '1'), key)
            await page.goto(`${base}/`)
            await settle(page, 250)
            await shoot(page, folder, flag)
            written.push(join(folder, flag))
            await page.evaluate((name) => localStorage.removeItem(name), key)
          }
          if (controlDecline) {
            // A payment the card's controls declined: why, and the one-tap fix (issue 30).
            await visit(page, controlDecline)
            await shoot(page, folder, 'controlDecline')
            written.push(join(folder, 'controlDecline'))
          }
          if (only?.has('cardControls')) {
            // A card's limits and controls (issue 30), by name only: the sheet opened.
            await visit(page, urls.find((route) => route.name === 'card')!.url)
            await page.getByTestId('quick-limits').click()
            const controls = page.locator('[data-testid="card-controls"] .card-controls')
            await controls.waitFor()
            // The sheet scrolls within: first the ways to pay and kinds of shop, then the lists.
            await controls.scrollIntoViewIfNeeded()
            await shoot(page, folder, 'cardControls')
            await controls.locator('button[type="submit"]').scrollIntoViewIfNeeded()
            await shoot(page, folder, 'cardControlsLists')
            written.push(join(folder, 'cardControls'), join(folder, 'cardControlsLists'))
          }
          if (only?.has('disputeFlow')) {
            // "Something wrong?" on a settled card payment (issue 30): each step, then sent.
            await visit(page, await settledPaymentUrl(base))
            const form = page.getByTestId('dispute-form')
            await page.getByTestId('dispute-start').click()
            await form.locator('input[type="radio"]').first().check()
            await shoot(page, folder, 'disputeReason')
            await form.locator('button[type="submit"]').click()
            await form.locator('textarea').fill('I never bought this.')
            await shoot(page, folder, 'disputeDetails')
            await form.locator('button[type="submit"]').click()
            await page.getByTestId('dispute-sent').waitFor()
            await shoot(page, folder, 'disputeSent')
            written.push(join(folder, 'disputeReason'), join(folder, 'disputeDetails'))
            written.push(join(folder, 'disputeSent'))
          }
          if (only?.has('securityLocked') || only?.has('lockdownBanner')) {
            // Locked down (issue 30), by name only: it signs every other session out.
            await visit(page, '/profile/security')
            const locked = page.locator('#lockdown-title ~ .alert')
            await page.locator('#lockdown-title ~ :is(.alert, p)').first().waitFor()
            if (!(await locked.isVisible()))
              await page.locator('#lockdown-title ~ div button').click()
            await locked.waitFor()
            await shoot(page, folder, 'securityLocked')
            written.push(join(folder, 'securityLocked'))
            // The banner over every screen while locked (issue 30).
            await visit(page, '/')
            await page.locator('.banner-lockdown').waitFor()
            await shoot(page, folder, 'lockdownBanner')
            written.push(join(folder, 'lockdownBanner'))
          }
          if (wanted('requestCreated')) {
            // Issue 32: a request just made, with its link, share buttons and QR code.
            await visit(page, '/requests/new')
            await page.locator('input[name=amount]').fill(typedAmount(language))
            await page.locator('input[name=note]').fill(NOTES[language] ?? 'Tickets')
            await page.locator('form button[type=submit]').click()
            await page.locator('.share-request img').waitFor()
            await shoot(page, folder, 'requestCreated')
            written.push(join(folder, 'requestCreated'))
          }
          if (wanted('payReview')) {
            // Issue 32: paying someone by e-mail, reviewed: the money waits for them.
            await visit(page, '/pay-someone')
            await page.locator('input[name=contact]').fill('anna.new@example.com')
            await page.locator('.alert-warning').first().waitFor()
            const euros = page.locator('select[name=currency] option', { hasText: /^EUR/ })
            await page
              .locator('select[name=currency]')
              .selectOption((await euros.getAttribute('value'))!)
            await page.locator('input[name=amount]').fill('20')
            await page.locator('form button[type=submit]').click()
            await page.locator('#pay-review-title').waitFor()
            await shoot(page, folder, 'payReview')
            written.push(join(folder, 'payReview'))
          }
          if (wanted('exchangeReview')) {
            await exchangeReview(page, urls)
            await shoot(page, folder, 'exchangeReview')
          }
          await context.close()
          if (size !== 'desktop' && wanted('miniApp')) {
            const mini = await openMiniApp(browser, base, size, language, theme)
            await shoot(mini.page, folder, 'miniApp')
            await mini.context.close()
          }
          console.log(`${folder}: done`)
        }
      }
    }
    if (values.readme) console.log(`README screens written to ${README}`)
  } finally {
    await browser.close()
    await stop?.()
  }
  console.log(`${written.length} screens written under ${OUT}`)
}

await main()
