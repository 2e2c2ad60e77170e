import {
  constants,
  createDecipheriv,
  createPublicKey,
  generateKeyPairSync,
  publicEncrypt,
  randomBytes,
} from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import { CardCrypto, exchangeKeyHash, sealSecrets } from './card-crypto.ts'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'card-crypto-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const rsa = (bits = 2048) =>
  generateKeyPairSync('rsa', {
    modulusLength: bits,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })

const material = (privateKey = rsa().privateKey) => ({
  cardDataKey: new Uint8Array(randomBytes(32)),
  cardCvk: new Uint8Array(randomBytes(32)),
  cardSecretPrivateKey: privateKey,
})

describe('card keys in the configuration', () => {
  it('generates the data key, the CVK and the RSA key into DATA_DIR once, privately, and keeps them', () => {
    const dataDir = tempDir()
    const first = loadConfig({ DATA_DIR: dataDir })
    const second = loadConfig({ DATA_DIR: dataDir })
    expect(first.secrets.cardDataKey).toHaveLength(32)
    expect(first.secrets.cardCvk).toHaveLength(32)
    expect(Buffer.from(second.secrets.cardDataKey)).toEqual(Buffer.from(first.secrets.cardDataKey))
    expect(Buffer.from(second.secrets.cardCvk)).toEqual(Buffer.from(first.secrets.cardCvk))
    expect(Buffer.from(first.secrets.cardCvk)).not.toEqual(Buffer.from(first.secrets.cardDataKey))
    const pemFile = join(dataDir, 'card-secret-key.pem')
    expect(statSync(pemFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(pemFile, 'utf8')).toBe(first.secrets.cardSecretPrivateKey)
    expect(second.secrets.cardSecretPrivateKey).toBe(first.secrets.cardSecretPrivateKey)
    const key = createPublicKey(first.secrets.cardSecretPrivateKey)
    expect(key.asymmetricKeyType).toBe('rsa')
    expect(key.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048)
  })

  it('takes them from CARD_DATA_KEY, CARD_CVK and CARD_SECRET_PRIVATE_KEY (one-line PEM allowed)', () => {
    const { privateKey } = rsa()
    const config = loadConfig({
      DATA_DIR: tempDir(),
      CARD_DATA_KEY: Buffer.alloc(32, 3).toString('base64url'),
      CARD_CVK: Buffer.alloc(40, 4).toString('base64url'),
      CARD_SECRET_PRIVATE_KEY: privateKey.replace(/\n/g, '\\n'),
    })
    expect(Buffer.from(config.secrets.cardDataKey)).toEqual(Buffer.alloc(32, 3))
    expect(Buffer.from(config.secrets.cardCvk)).toEqual(Buffer.alloc(40, 4))
    expect(config.secrets.cardSecretPrivateKey).toBe(privateKey)
  })

  it('refuses a data key that is not 32 bytes, a short CVK, and an RSA key under 2048 bits or not RSA', () => {
    const base = { DATA_DIR: tempDir() }
    expect(() =>
      loadConfig({ ...base, CARD_DATA_KEY: Buffer.alloc(48).toString('base64url') }),
    ).toThrowError(/CARD_DATA_KEY must be exactly 32 bytes/)
    expect(() => loadConfig({ ...base, CARD_CVK: 'short' })).toThrowError(
      /CARD_CVK must be at least 32 bytes/,
    )
    expect(() =>
      loadConfig({ ...base, CARD_SECRET_PRIVATE_KEY: rsa(1024).privateKey }),
    ).toThrowError(/CARD_SECRET_PRIVATE_KEY must be a PEM RSA private key of 2048 bits or more/)
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey
    expect(() => loadConfig({ ...base, CARD_SECRET_PRIVATE_KEY: ec })).toThrowError(
      /CARD_SECRET_PRIVATE_KEY/,
    )
    expect(() => loadConfig({ ...base, CARD_SECRET_PRIVATE_KEY: 'not a key' })).toThrowError(
      /CARD_SECRET_PRIVATE_KEY/,
    )
  })
})

describe('CardCrypto', () => {
  const keys = material()
  const crypto = new CardCrypto(keys)
  const scope = {
    tenantId: '0193a7b2-0000-7000-8000-000000000001',
    cardId: '0193a7b2-0000-7000-8000-00000000000a',
  }
  const pan = '4000120000000006'

  it('stores a number as v1.<iv>.<tag>.<ciphertext>, without its digits, and reads it back', () => {
    const stored = crypto.encryptPan(scope, pan)
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/)
    expect(stored).not.toContain(pan.slice(0, 8))
    expect(crypto.encryptPan(scope, pan)).not.toBe(stored)
    expect(crypto.decryptPan(scope, stored)).toBe(pan)
  })

  it('refuses a ciphertext moved to another card or tenant, altered, or under another key', () => {
    const stored = crypto.encryptPan(scope, pan)
    expect(() => crypto.decryptPan({ ...scope, cardId: scope.tenantId }, stored)).toThrow()
    expect(() => crypto.decryptPan({ ...scope, tenantId: scope.cardId }, stored)).toThrow()
    const parts = stored.split('.')
    const flipped = Buffer.from(parts[3]!, 'base64url')
    flipped[0]! ^= 1
    parts[3] = flipped.toString('base64url')
    expect(() => crypto.decryptPan(scope, parts.join('.'))).toThrow()
    expect(() => new CardCrypto(material()).decryptPan(scope, stored)).toThrow()
    expect(() => crypto.decryptPan(scope, `v2${stored.slice(2)}`)).toThrow(/format/)
  })

  it('names its data key, fingerprints numbers and hashes codes without revealing them', () => {
    expect(crypto.keyId).toMatch(/^k-[A-Za-z0-9_-]{12}$/)
    expect(new CardCrypto({ ...keys }).keyId).toBe(crypto.keyId)
    expect(new CardCrypto(material()).keyId).not.toBe(crypto.keyId)
    const print = crypto.panFingerprint(pan)
    expect(print).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(crypto.panFingerprint(pan)).toBe(print)
    expect(crypto.panFingerprint('4000120000000014')).not.toBe(print)
    expect(crypto.otpHash(scope.cardId, '123456')).not.toBe(
      crypto.otpHash(scope.tenantId, '123456'),
    )
  })

  it('publishes the public half of its RSA key and decrypts only RSA-OAEP-SHA256 under it', () => {
    const { privateKey, publicKey } = rsa()
    const mine = new CardCrypto(material(privateKey))
    expect(mine.publicKeyPem).toBe(publicKey)
    const message = Buffer.from('{"key":"…","timestamp":1}')
    const oaep256 = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      message,
    )
    expect(mine.decryptExchangeKey(oaep256.toString('base64'))).toEqual(message)
    const oaepSha1 = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING },
      message,
    )
    expect(mine.decryptExchangeKey(oaepSha1.toString('base64'))).toBeUndefined()
    expect(
      mine.decryptExchangeKey(oaep256.toString('base64url').replace(/[-_]/g, '%')),
    ).toBeUndefined()
    expect(mine.decryptExchangeKey('')).toBeUndefined()
  })

  it('seals secrets with AES-256-CBC under the client key, a fresh IV each time', () => {
    const key = randomBytes(32)
    const secrets = { data: { pan, expiry: '03/29', cvv: '123' } }
    const sealed = sealSecrets(key, secrets)
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(16)
    const decipher = createDecipheriv('aes-256-cbc', key, Buffer.from(sealed.iv, 'base64'))
    const plain = Buffer.concat([
      decipher.update(Buffer.from(sealed.data, 'base64')),
      decipher.final(),
    ])
    expect(JSON.parse(plain.toString())).toEqual(secrets)
    expect(sealSecrets(key, secrets).iv).not.toBe(sealed.iv)
  })

  it('names an encrypted_key for the replay guard by its SHA-256', () => {
    expect(exchangeKeyHash('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  })
})
