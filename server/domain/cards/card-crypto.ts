import {
  constants,
  createCipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  privateDecrypt,
  randomBytes,
} from 'node:crypto'
import type { CardSecrets } from '../../../contract/cards.ts'
import { seal, unseal } from '../../infra/sealing.ts'

/** The card keys of config.secrets (CARD_DATA_KEY, CARD_CVK, CARD_SECRET_PRIVATE_KEY). */
export interface CardKeyMaterial {
  cardDataKey: Uint8Array
  cardCvk: Uint8Array
  /** PKCS#8 PEM of the RSA key (2048 bits or more) of the secret exchange. */
  cardSecretPrivateKey: string
}

/**
 * The card keys in use. Card numbers are kept with AES-256-GCM under the data
 * key, the card and tenant ids as additional data (a ciphertext copied to
 * another card does not decrypt). `keyId` names the data key (a hash of it),
 * so rows written under a later key can be told apart.
 */
export class CardCrypto {
  readonly keyId: string
  readonly cvk: Uint8Array
  readonly #dataKey: Uint8Array
  readonly #fingerprintKey: Buffer
  readonly #otpKey: Buffer
  readonly #privateKey: KeyObject
  readonly publicKeyPem: string

  constructor(keys: CardKeyMaterial) {
    if (keys.cardDataKey.length !== 32) throw new Error('CARD_DATA_KEY must be 32 bytes')
    this.#dataKey = keys.cardDataKey
    this.cvk = keys.cardCvk
    this.keyId = `k-${createHash('sha256').update(keys.cardDataKey).digest('base64url').slice(0, 12)}`
    // Separate keys for separate uses, derived from the data key.
    this.#fingerprintKey = createHmac('sha256', keys.cardDataKey).update('pan-fingerprint').digest()
    this.#otpKey = createHmac('sha256', keys.cardDataKey).update('card-otp').digest()
    this.#privateKey = createPrivateKey(keys.cardSecretPrivateKey)
    this.publicKeyPem = createPublicKey(this.#privateKey)
      .export({ type: 'spki', format: 'pem' })
      .toString()
  }

  encryptPan(scope: { tenantId: string; cardId: string }, pan: string): string {
    return seal(this.#dataKey, aad(scope), Buffer.from(pan, 'utf8'))
  }

  decryptPan(scope: { tenantId: string; cardId: string }, stored: string): string {
    const opened = unseal(this.#dataKey, aad(scope), stored)
    if (!opened.ok) {
      throw new Error(
        opened.failure === 'format'
          ? 'unknown card number format'
          : 'the card number does not decrypt: CARD_DATA_KEY is not the key it was stored under',
      )
    }
    return Buffer.from(opened.plaintext).toString('utf8')
  }

  /** A keyed hash of the number (base64url, no digit runs): unique per tenant, reveals nothing. */
  panFingerprint(pan: string): string {
    return createHmac('sha256', this.#fingerprintKey).update(pan).digest('base64url')
  }

  otpHash(cardId: string, code: string): string {
    return createHmac('sha256', this.#otpKey).update(`${cardId}|${code}`).digest('base64url')
  }

  /** RSA-OAEP (SHA-256) decryption of an encrypted_key; undefined when it does not decrypt. */
  decryptExchangeKey(encryptedKey: string): Buffer | undefined {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encryptedKey)) return undefined
    try {
      return privateDecrypt(
        { key: this.#privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(encryptedKey, 'base64'),
      )
    } catch {
      return undefined
    }
  }
}

/** The replay guard's name for an encrypted_key: SHA-256, base64url. */
export const exchangeKeyHash = (encryptedKey: string): string =>
  createHash('sha256').update(encryptedKey).digest('base64url')

/** AES-256-CBC of the secrets JSON under the client's key: the reply's `data` and `iv`, standard base64. */
export function sealSecrets(key: Uint8Array, secrets: CardSecrets): { data: string; iv: string } {
  const iv = randomBytes(16)
  const cipher = createCipheriv('aes-256-cbc', key, iv)
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()])
  return { data: data.toString('base64'), iv: iv.toString('base64') }
}

const aad = ({ tenantId, cardId }: { tenantId: string; cardId: string }) =>
  `${tenantId.toLowerCase()}|${cardId.toLowerCase()}`
