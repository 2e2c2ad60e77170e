import { expect, test } from 'vitest'
import { confirmWithCode, signUpThroughUi, uniqueEmail } from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'

/*
 * The developer page in the built app: a READ_ONLY key created there, its
 * secret shown once, then used from outside the app — it reads, and a write
 * is refused naming the role it would need.
 */

const session = e2eSession({ DEMO_SEED: 'false' })

test('create a READ_ONLY key on the developer page and see a write with it refused', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const base = session.server.url

  const email = uniqueEmail('developer')
  await signUpThroughUi(page, base, email)
  await page.goto(`${base}/developer`)
  await page.getByRole('heading', { name: 'Developer', level: 1 }).waitFor()
  expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe(
    '/api/docs',
  )
  await page.getByText('No API keys yet.').waitFor()

  await page.getByRole('button', { name: 'Create a key' }).click()
  await page.getByRole('textbox', { name: 'Name' }).fill('Reports')
  await page.getByRole('combobox', { name: 'Role' }).selectOption('READ_ONLY')
  await page.getByRole('button', { name: 'Create key' }).click()
  // Creating a key needs the second look: a password sign-in is not enough.
  await confirmWithCode(page, base, email)
  const reveal = page.getByRole('region', { name: 'Your new key “Reports”' })
  const secret = ((await reveal.locator('code').textContent()) ?? '').trim()
  expect(secret).toMatch(/^fpk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}/api/v2${path}`, {
      method,
      headers: { ...TENANT_HEADERS, 'x-api-key': secret, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
  const read = await call('GET', '/wallets')
  expect(read.status).toBe(200)
  const write = await call('POST', '/wallets', { type: 'personal' })
  expect(write.status).toBe(403)
  expect(await write.json()).toMatchObject({
    code: 'API_KEY_ROLE_FORBIDDEN',
    required_role: 'DEVELOPER',
  })

  // Done only once the person says the key is saved; then the secret is gone from the page.
  const done = reveal.getByRole('button', { name: 'Done' })
  expect(await done.isDisabled()).toBe(true)
  await reveal.getByRole('checkbox', { name: 'I have saved the key' }).check()
  await done.click()
  expect(await page.getByText(secret).count()).toBe(0)

  // The key's use shows after a reload (recorded just after the answer, so it may take a
  // moment); the providers are listed with their health.
  const key = page.getByRole('listitem').filter({ hasText: 'Reports' })
  await expect
    .poll(
      async () => {
        await page.reload()
        await key.getByText('Read only').waitFor()
        return key.getByText('Never').count()
      },
      { timeout: 15_000, interval: 500 },
    )
    .toBe(0)
  await page.getByRole('table', { name: 'Providers' }).getByText('Exchange rates').waitFor()
})
