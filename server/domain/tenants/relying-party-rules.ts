/*
 * A relying party (WebAuthn's name for who a passkey is made for), the pure
 * part: the server's default (WEBAUTHN_RP_ID, server/config.ts) and a
 * tenant's own (`npm run tenant -- passkeys`, relying-party.ts) are checked
 * by the same rule. No IO here.
 */

/**
 * What is wrong with a relying party: the RP id must be a host name (no
 * scheme, port or path), and every origin must be https (http only for
 * localhost) on the RP id or a subdomain of it — the rule browsers apply
 * before they let a page use a credential (WebAuthn §5.1.3 step 8).
 */
export function relyingPartyProblems(rpId: string, origins: readonly string[]): string[] {
  const problems: string[] = []
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId)) {
    problems.push(`the RP id "${rpId}" must be a lower-case host name, e.g. app.example.com`)
  }
  if (origins.length === 0) problems.push('at least one origin is needed')
  for (const origin of origins) {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      problems.push(`"${origin}" is not an origin`)
      continue
    }
    if (url.origin !== origin) {
      problems.push(`"${origin}" must be an origin only (scheme, host, port), like "${url.origin}"`)
      continue
    }
    const local = url.hostname === 'localhost'
    if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
      problems.push(`"${origin}" must use https (http only for localhost)`)
    }
    if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) {
      problems.push(`"${origin}" is not on the RP id "${rpId}" or a subdomain of it`)
    }
  }
  return problems
}
