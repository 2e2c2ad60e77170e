import {
  createHash,
  createSign,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto'

/**
 * A software authenticator for tests: a P-256 key made in the test, an
 * attestation of format "none", and assertions signed the way an
 * authenticator signs them (WebAuthn §6.1, §6.3.3): ECDSA-SHA256 over
 * authenticatorData ‖ SHA-256(clientDataJSON). It answers the JSON that
 * @simplewebauthn/browser would hand the server.
 */

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

/* A minimal CBOR encoder (RFC 8949): what an attestation object and a COSE key need. */
function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value])
  if (value < 256) return Buffer.from([(major << 5) | 24, value])
  if (value < 65_536) return Buffer.from([(major << 5) | 25, value >> 8, value & 255])
  const out = Buffer.alloc(5)
  out[0] = (major << 5) | 26
  out.writeUInt32BE(value, 1)
  return out
}
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8')
    return Buffer.concat([head(3, text.length), text])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  const parts = [head(5, value.size)]
  for (const [key, item] of value) parts.push(cbor(key), cbor(item))
  return Buffer.concat(parts)
}

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

export interface SoftwarePasskey {
  credentialId: Buffer
  privateKey: KeyObject
  /** The user handle the server gave at registration (base64url). */
  userHandle: string
  counter: number
}

export interface Ceremony {
  origin: string
  rpId: string
  /**
   * Whether the authenticator verified the person (PIN, biometrics): the UV
   * flag. Default true; false is a key that was only touched (user presence).
   */
  userVerified?: boolean
}

const flagsOf = (ceremony: { userVerified?: boolean }) =>
  ceremony.userVerified === false ? FLAG_UP : FLAG_UP | FLAG_UV

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer) {
  const count = Buffer.alloc(4)
  count.writeUInt32BE(counter)
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)])
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8')
}

/**
 * Makes a credential for registration options (as navigator.credentials.create
 * would): `response` goes to POST /user/passkeys, `passkey` signs later.
 */
export function createCredential(
  options: { challenge: string; user: { id: string }; rp: { id?: string } },
  ceremony: Partial<Ceremony> & { origin: string },
): { response: Record<string, unknown>; passkey: SoftwarePasskey } {
  const rpId = ceremony.rpId ?? options.rp.id ?? 'localhost'
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const coseKey = cbor(
    new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]),
  )
  const credentialId = randomBytes(32)
  const idLength = Buffer.alloc(2)
  idLength.writeUInt16BE(credentialId.length)
  const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey])
  const authData = authenticatorData(rpId, flagsOf(ceremony) | FLAG_AT, 0, attested)
  const attestationObject = cbor(
    new Map<Cbor, Cbor>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  )
  return {
    response: {
      id: b64url(credentialId),
      rawId: b64url(credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', options.challenge, ceremony.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    },
    passkey: { credentialId, privateKey, userHandle: options.user.id, counter: 0 },
  }
}

/**
 * Signs a challenge as navigator.credentials.get would. The counter moves up
 * by one unless `counter` says what to sign with (a cloned authenticator).
 */
export function assert(
  passkey: SoftwarePasskey,
  challenge: string,
  ceremony: Ceremony & { counter?: number },
): Record<string, unknown> {
  const counter = ceremony.counter ?? passkey.counter + 1
  passkey.counter = Math.max(passkey.counter, counter)
  const authData = authenticatorData(ceremony.rpId, flagsOf(ceremony), counter)
  const data = clientData('webauthn.get', challenge, ceremony.origin)
  const signature = createSign('SHA256')
    .update(Buffer.concat([authData, sha256(data)]))
    .sign(passkey.privateKey)
  return {
    id: b64url(passkey.credentialId),
    rawId: b64url(passkey.credentialId),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(data),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  }
}
