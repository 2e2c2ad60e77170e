import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import {
  confirmWithCode,
  personalWalletUuid,
  signUpThroughUi,
  uniqueEmail,
} from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'

/*
 * Identity verification in the built app, through the sandbox's own screen:
 * a card refused before it (the refusal leading to /verify), the document,
 * the selfie, the submission, the page following the review on its own
 * until the sandbox approves — and then the card issued.
 */

const session = e2eSession({ JOBS_POLL_MS: '100', DEMO_SEED: 'false', SANDBOX_KYC_MS: '800' })

test('complete the sandbox verification, see it approved, then issue a card', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const base = session.server.url

  const email = uniqueEmail('kyc')
  await signUpThroughUi(page, base, email)
  const walletUuid = await personalWalletUuid(page)

  // Not verified yet: issuing a card is refused, and the refusal leads to the verification.
  await fillCardForm(page, base, walletUuid, 'Verified')
  await page.getByRole('button', { name: 'Issue card' }).click()
  // Issuing asks for the second look first (as a payout does), then for the verification.
  await confirmWithCode(page, base, email)
  const prompt = page.getByRole('alert', { name: 'Verify your identity' })
  await prompt.getByRole('link', { name: 'Verify your identity' }).click()
  await page.waitForURL(`${base}/verify`)
  await page.getByRole('heading', { name: 'Identity verification', level: 1 }).waitFor()
  await expect.poll(() => statusLine(page)).toBe('Status: Not verified')
  await page.getByRole('button', { name: 'Start verification' }).click()

  // The document.
  await page.getByRole('heading', { name: 'Your document', level: 2 }).waitFor()
  await page.getByRole('textbox', { name: 'First name, as on the document' }).fill('Ada')
  await page.getByRole('textbox', { name: 'Last name, as on the document' }).fill('Lovelace')
  await page.getByRole('combobox', { name: 'Document' }).selectOption({ label: 'Passport' })
  await page.getByRole('combobox', { name: 'Issuing country' }).selectOption('GB')
  await page.getByRole('button', { name: 'Continue' }).click()

  // The selfie: a placeholder picture, "taken" on request.
  await page.getByRole('heading', { name: 'A selfie', level: 2 }).waitFor()
  await page.getByRole('button', { name: 'Take the selfie' }).click()
  await page.getByRole('img', { name: 'Selfie taken' }).waitFor()
  await page.getByRole('button', { name: 'Continue' }).click()

  // Check and send; the page then follows the review by itself.
  await page.getByRole('heading', { name: 'Check and send', level: 2 }).waitFor()
  await page.getByText('Ada Lovelace', { exact: true }).waitFor()
  await page.getByRole('button', { name: 'Send for verification' }).click()
  await expect.poll(() => statusLine(page)).toBe('Status: In review')
  await page.getByRole('progressbar', { name: 'Checking your documents' }).waitFor()
  await expect
    .poll(() => statusLine(page), { timeout: 15_000, interval: 250 })
    .toBe('Status: Verified')
  const history = page.getByRole('region', { name: 'History' })
  await expect
    .poll(async () => (await history.locator('li strong').allTextContents()).join(', '))
    .toBe('Verified, In review')

  // Verified: a card can be issued.
  await page.getByRole('link', { name: 'Go to cards' }).click()
  await fillCardForm(page, base, walletUuid, 'Verified')
  await page.getByRole('button', { name: 'Issue card' }).click()
  await page.waitForURL(/\/cards\/[0-9a-f-]{36}\?issued=1$/)
  await page.getByRole('heading', { name: 'Verified', level: 1 }).waitFor()
})

/** The issue form filled for a virtual card on an account of its own, up to its review. */
async function fillCardForm(page: Page, base: string, walletUuid: string, name: string) {
  await page.goto(`${base}/cards/new?wallet=${walletUuid}`)
  await page.getByRole('heading', { name: 'Issue a card', level: 1 }).waitFor()
  await page.getByRole('radio', { name: 'A new account of its own' }).check()
  await page.getByRole('radio', { name: 'Virtual' }).check()
  await page.getByRole('textbox', { name: 'Card name (optional)' }).fill(name)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('heading', { name: 'Check and confirm', level: 2 }).waitFor()
}

/** The line of the verification page that says the status. */
async function statusLine(page: Page): Promise<string> {
  const line = page.locator('[data-status]')
  if ((await line.count()) === 0) return ''
  return (await line.innerText()).replace(/\s+/g, ' ').trim()
}
