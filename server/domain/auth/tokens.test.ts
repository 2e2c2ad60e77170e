import { createHmac } from 'node:crypto'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { Tokens } from './tokens.ts'

const jwtKey = new Uint8Array(32).fill(7)
const tokens = new Tokens({ jwtKey, refreshKey: new Uint8Array(32).fill(9) }, 900)
const claims = { userId: 'user-1', tenantId: 'tenant-1', sessionId: 'session-1' }
const at = new Date('2026-01-01T00:00:00Z')
const second = at.getTime() / 1000

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
/** A token signed with the right key over whatever header and payload a test wants. */
function forge(header: unknown, payload: unknown, key: Uint8Array = jwtKey) {
  const body = `${b64(header)}.${b64(payload)}`
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`
}
const payload = {
  sub: 'user-1',
  tid: 'tenant-1',
  sid: 'session-1',
  iss: 'finplatform',
  iat: second,
  exp: second + 900,
}

describe('access tokens: verified with node:crypto as jose would', () => {
  it('accepts a token it issued until the second it expires', async () => {
    const token = await tokens.issueAccess(claims, at)
    expect(tokens.verifyAccess(token, at.getTime())).toEqual(claims)
    expect(tokens.verifyAccess(token, (second + 899) * 1000 + 999)).toEqual(claims)
    expect(tokens.verifyAccess(token, (second + 900) * 1000)).toBeNull()
  })

  it('remembers a token it verified until its exp, and only one that passed', async () => {
    const key = new Uint8Array(32).fill(3)
    const own = new Tokens({ jwtKey: key, refreshKey: new Uint8Array(32).fill(4) }, 900)
    const token = await own.issueAccess(claims, at)
    const forged = `${token.slice(0, -2)}AA`
    expect(own.verifyAccess(forged, at.getTime())).toBeNull()
    expect(own.verifyAccess(token, at.getTime())).toEqual(claims)
    // Bytes changed under the instance (never done in the code) would fail a fresh check: the
    // token is answered from what was verified, not signed again on every call.
    key.fill(5)
    expect(own.verifyAccess(token, (second + 60) * 1000)).toEqual(claims)
    expect(own.verifyAccess(forged, at.getTime())).toBeNull()
    expect(own.verifyAccess(token, (second + 900) * 1000)).toBeNull()
    expect(own.verifyAccess(token, (second + 60) * 1000)).toBeNull()
  })

  it('accepts one jose signs the same way', async () => {
    const token = await new SignJWT({ tid: 'tenant-1', sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setIssuer('finplatform')
      .setExpirationTime(second + 60)
      .sign(jwtKey)
    expect(tokens.verifyAccess(token, at.getTime())).toEqual(claims)
  })

  it('refuses a changed payload or signature, another key, another algorithm, another issuer', async () => {
    const token = await tokens.issueAccess(claims, at)
    const [header, body, signature] = token.split('.') as [string, string, string]
    const other = b64({ ...payload, sub: 'user-2' })
    const now = at.getTime()
    expect(tokens.verifyAccess(`${header}.${other}.${signature}`, now)).toBeNull()
    expect(tokens.verifyAccess(`${header}.${body}.${signature.slice(0, -2)}AA`, now)).toBeNull()
    expect(tokens.verifyAccess(`${header}.${body}.`, now)).toBeNull()
    expect(
      tokens.verifyAccess(forge({ alg: 'HS256' }, payload, new Uint8Array(32)), now),
    ).toBeNull()
    expect(tokens.verifyAccess(forge({ alg: 'none' }, payload), now)).toBeNull()
    expect(tokens.verifyAccess(forge({ alg: 'HS512' }, payload), now)).toBeNull()
    expect(tokens.verifyAccess(forge({ alg: 'HS256', crit: ['x'] }, payload), now)).toBeNull()
    expect(
      tokens.verifyAccess(forge({ alg: 'HS256' }, { ...payload, iss: 'someone' }), now),
    ).toBeNull()
    expect(tokens.verifyAccess(forge({ alg: 'HS256' }, payload), now)).toEqual(claims)
  })

  it('refuses missing or malformed claims, a token not yet valid, and anything not a JWT', () => {
    const now = at.getTime()
    const { exp: _exp, ...noExpiry } = payload
    expect(tokens.verifyAccess(forge({ alg: 'HS256' }, noExpiry), now)).toBeNull()
    expect(
      tokens.verifyAccess(forge({ alg: 'HS256' }, { ...payload, exp: 'soon' }), now),
    ).toBeNull()
    expect(
      tokens.verifyAccess(forge({ alg: 'HS256' }, { ...payload, nbf: second + 5 }), now),
    ).toBeNull()
    expect(tokens.verifyAccess(forge({ alg: 'HS256' }, { ...payload, nbf: second }), now)).toEqual(
      claims,
    )
    expect(tokens.verifyAccess(forge({ alg: 'HS256' }, { ...payload, sid: 7 }), now)).toBeNull()
    expect(tokens.verifyAccess(forge({ alg: 'HS256' }, [1, 2]), now)).toBeNull()
    for (const junk of ['', 'a.b', 'a.b.c.d', 'not a token', '..']) {
      expect(tokens.verifyAccess(junk, now)).toBeNull()
    }
  })
})
