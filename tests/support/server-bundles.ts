import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's test workers build the server as `npm start` runs it. */
    serverBundles: string
  }
}

/**
 * globalSetup of the server projects: a directory of the run, inside the
 * checkout (a built server resolves its packages from node_modules there), for
 * server/process-test-support.ts to build into. A worker outlives the files it
 * runs (`isolate: false`) and may be killed rather than exit, so the run, not
 * the worker, removes what was built.
 */
export default function setup(project: TestProject) {
  const build = fileURLToPath(new URL('../../build/', import.meta.url))
  mkdirSync(build, { recursive: true })
  const dir = mkdtempSync(join(build, 'test-servers-'))
  project.provide('serverBundles', dir)
  return () => rmSync(dir, { recursive: true, force: true })
}
