// The app's build-time settings (VITE_*), checked once when Vite starts, so a
// mistyped name or a malformed value stops the build with a message instead of
// shipping an app that talks to the wrong place. What each one means: README.md,
// "Configuration"; the app reads them in src/net/config.ts and the
// card-secrets worker.
import { createPublicKey } from 'node:crypto'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A same-origin path ("/api/v2") or an absolute http(s) URL. */
function pathOrUrl(value) {
  if (value.startsWith('/') && !value.startsWith('//')) return null
  try {
    const { protocol } = new URL(value)
    if (protocol === 'http:' || protocol === 'https:') return null
  } catch {}
  return 'must be a path starting with "/" or an http(s) URL'
}

/** An API base: a path or URL the app appends "/wallets" and the like to. */
const base = (value) => (value.endsWith('/') ? 'must not end with "/"' : pathOrUrl(value))

function rsaPublicKey(value) {
  try {
    const key = createPublicKey({ key: value, format: 'pem' })
    return key.asymmetricKeyType === 'rsa' ? null : 'must be an RSA public key'
  } catch {
    return 'must be a PEM public key ("-----BEGIN PUBLIC KEY-----" …)'
  }
}

/** Each setting the app reads and the rule its value follows (null: any value). */
export const APP_SETTINGS = {
  VITE_API_V1_URL: base,
  VITE_API_V2_URL: base,
  VITE_TENANT_ID: (value) => (UUID.test(value) ? null : 'must be a tenant id (a UUID)'),
  VITE_LOGOUT_LOCATION: pathOrUrl,
  // docs/product.md §5's flag: "false", "0", "" and "FALSE" are off, anything else on.
  VITE_TELEGRAM_MINI_APP: () => null,
  VITE_CARD_SECRET_PUBLIC_KEY: rsaPublicKey,
}

/** What is wrong with `env`'s VITE_* settings, one sentence each; empty when nothing is. */
export function appSettingProblems(env) {
  const problems = []
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('VITE_')) continue
    const rule = APP_SETTINGS[name]
    if (!rule) {
      problems.push(
        `${name} is not a setting of the app (known: ${Object.keys(APP_SETTINGS).join(', ')}).`,
      )
      continue
    }
    // Empty: the default applies (or, for the flag, off).
    if (value === undefined || value === '') continue
    const problem = rule(value)
    if (problem) problems.push(`${name} ${problem}; it is ${JSON.stringify(value)}.`)
  }
  return problems
}
