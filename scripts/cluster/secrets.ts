import { generateKeyPairSync, randomBytes } from 'node:crypto'

/** The keys every node must share (tokens signed by one are checked by another). */
export function sharedSecrets(): Record<string, string> {
  const key = () => randomBytes(32).toString('base64url')
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  return {
    JWT_SECRET: key(),
    REFRESH_TOKEN_SECRET: key(),
    ADDRESS_SEED_KEY: key(),
    CARD_DATA_KEY: key(),
    CARD_CVK: key(),
    PROOF_KEYS_KEY: key(),
    // A quote signed by one node is placed on another.
    QUOTE_KEYS: key(),
    CARD_SECRET_PRIVATE_KEY: privateKey,
  }
}
