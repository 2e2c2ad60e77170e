import { expect, test } from 'vitest'
import {
  expectSignedInAs,
  openTab,
  readPersistedQueryKeys,
  signUpThroughUi,
  uniqueEmail,
  waitForServiceWorkerControl,
} from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'
import { setOffline } from '../support/offline.ts'

/*
 * A cold start without a network: the shell comes from the worker's precache,
 * the answers from the query cache in IndexedDB, and nothing waits for the server.
 */

const session = e2eSession()

test('offline, a reload shows what was last seen, marked offline, with server actions disabled', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const email = uniqueEmail('offline')

  await signUpThroughUi(page, session.server.url, email)
  await waitForServiceWorkerControl(page)
  await expectSignedInAs(page, email)
  await openTab(page, 'Profile')
  await page.getByRole('button', { name: 'Save changes' }).waitFor()
  await openTab(page, 'Home')
  await expectSignedInAs(page, email)

  // Writes are throttled: wait until the profile's answers are on disk.
  await expect
    .poll(() => readPersistedQueryKeys(page), { timeout: 10_000 })
    .toEqual(
      expect.arrayContaining([
        ['user', 'me'],
        ['user', 'data'],
      ]),
    )

  await setOffline(context, true)
  await page.reload()
  await expectSignedInAs(page, email)
  await page.getByText(/^Offline · updated /).waitFor()

  await openTab(page, 'Profile')
  const save = page.getByRole('button', { name: 'Save changes' })
  await save.waitFor()
  expect(await save.isDisabled()).toBe(true)
  await page.getByText('You are offline. This needs a connection.').first().waitFor()

  // Back online: the action is available again, nothing was queued meanwhile.
  await setOffline(context, false)
  await page.waitForFunction(
    () =>
      !(
        [...document.querySelectorAll('button')].find(
          (button) => button.textContent === 'Save changes',
        ) as HTMLButtonElement | undefined
      )?.disabled,
  )
})
