import { fileURLToPath } from 'node:url'

/**
 * Set by the server's build (scripts/build-server.mjs) to where server/ lies
 * from the bundle; absent when the sources run as they are (tests, `npm run dev`).
 */
declare const SERVER_DIR_FROM_BUNDLE: string | undefined

const serverDir =
  typeof SERVER_DIR_FROM_BUNDLE === 'string'
    ? new URL(SERVER_DIR_FROM_BUNDLE, import.meta.url)
    : new URL('./', import.meta.url)

/** A file of server/ (its migrations, its seed), wherever the code runs from. */
export const serverFile = (path: string): string => fileURLToPath(new URL(path, serverDir))
