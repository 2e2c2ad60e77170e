import { existsSync } from 'node:fs'
import { ensureBuilt } from '../../scripts/build-state.mjs'
import { CHROMIUM } from './e2e-server.ts'

/**
 * Global setup of the e2e project: the tests drive the built app, so build it
 * when dist/ is missing or older than its sources, and stop at once with a
 * readable message when there is no browser to drive it with.
 */
export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `e2e tests need Debian's Chromium at ${CHROMIUM} (Playwright cannot download browsers here). ` +
        'Install it with `apt-get install chromium` or run .ci/run, which does.',
    )
  }
  await ensureBuilt()
}
