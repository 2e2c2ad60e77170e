/**
 * Is this text an address a payment on `chain` can safely go to? Used for deposit addresses
 * (issue 4) and crypto withdrawal destinations (issue 5). On success it returns the canonical
 * spelling to store and compare (`normalized`); on failure a reason a person can act on.
 *
 * Rules per format:
 * - bitcoin: mainnet segwit — v0 in bech32 (20-byte P2WPKH or 32-byte P2WSH), v1 in bech32m
 *   (32-byte Taproot) — normalized to lower case; legacy base58check P2PKH (`1…`) and P2SH
 *   (`3…`), kept as written. Testnet/regtest and future witness versions are refused: coins sent
 *   to a version no wallet spends yet are lost.
 * - ethereum, polygon: `0x` + 40 hex digits; mixed case must carry a correct EIP-55 checksum,
 *   all-lower or all-upper carries none and is accepted; normalized to the EIP-55 spelling.
 * - tron: base58check of 21 bytes starting 0x41 (`T…`).
 * - solana: base58 of exactly 32 bytes that is a point on ed25519, i.e. a key someone holds.
 *   Program-derived addresses (token accounts, vaults) are off the curve: for a deposit wallet
 *   or a plain SOL/SPL transfer they are almost always a pasted token account, so they are
 *   refused unless `allowOffCurve` is set by a caller that knows it pays a program.
 * Every chain refuses the all-zero address: whatever is sent to it is burnt.
 * Surrounding whitespace (a sloppy paste) is ignored; anything inside is an error.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { hexToBytes } from '@noble/hashes/utils.js'
import { bech32, bech32m } from '@scure/base'
import type { ChainId } from '../../../contract/catalog.ts'
import {
  BASE58_TEXT,
  BITCOIN_HRP,
  BITCOIN_P2PKH_VERSION,
  BITCOIN_P2SH_VERSION,
  base58,
  base58check,
  eip55,
  isAllZero,
  TRON_PREFIX,
} from './address-codecs.ts'

export type AddressCheck = { ok: true; normalized: string } | { ok: false; reason: string }

export interface ValidateOptions {
  /** Solana only: also accept off-curve (program-derived) addresses. Never for deposits. */
  allowOffCurve?: boolean
}

const MAX_LENGTH = 100

const valid = (normalized: string): AddressCheck => ({ ok: true, normalized })
const invalid = (reason: string): AddressCheck => ({ ok: false, reason })

const BAD_CHECKSUM = invalid('the checksum does not match')
const BURN = invalid('the all-zero address burns whatever is sent to it')

export function validateAddress(
  chain: ChainId,
  address: string,
  options: ValidateOptions = {},
): AddressCheck {
  if (typeof address !== 'string') return invalid('the address must be text')
  const text = address.trim()
  if (text === '') return invalid('the address is empty')
  // Every supported format is under 100 characters; the cap also bounds base58's quadratic decode.
  if (text.length > MAX_LENGTH) return invalid('the address is too long')
  switch (chain) {
    case 'bitcoin':
      return validateBitcoin(text)
    case 'ethereum':
    case 'polygon':
      return validateEvm(text)
    case 'tron':
      return validateTron(text)
    case 'solana':
      return validateSolana(text, options.allowOffCurve ?? false)
  }
}

/** Human-readable parts of Bitcoin networks whose coins are worthless on mainnet. */
const BITCOIN_TEST_HRPS = ['tb', 'bcrt']
/** Base58 version bytes of testnet P2PKH and P2SH. */
const BITCOIN_TEST_VERSIONS = [0x6f, 0xc4]
const BITCOIN_TESTNET = invalid('a Bitcoin testnet address; only mainnet addresses are accepted')

function validateBitcoin(text: string): AddressCheck {
  const lower = text.toLowerCase()
  if (lower.startsWith(`${BITCOIN_HRP}1`)) return validateSegwit(text, lower)
  if (BITCOIN_TEST_HRPS.some((hrp) => lower.startsWith(`${hrp}1`))) return BITCOIN_TESTNET
  if (!BASE58_TEXT.test(text)) return invalid('not a Bitcoin address')
  let payload: Uint8Array
  try {
    payload = base58check.decode(text)
  } catch {
    return /^[13]/.test(text) ? BAD_CHECKSUM : invalid('not a Bitcoin address')
  }
  if (payload.length !== 21) return invalid('not a Bitcoin address')
  const version = payload[0]!
  if (BITCOIN_TEST_VERSIONS.includes(version)) return BITCOIN_TESTNET
  if (version !== BITCOIN_P2PKH_VERSION && version !== BITCOIN_P2SH_VERSION) {
    return invalid('not a Bitcoin address')
  }
  if (isAllZero(payload.subarray(1))) return BURN
  return valid(text)
}

function validateSegwit(text: string, lower: string): AddressCheck {
  // BIP 173: one case throughout; upper case exists for QR codes.
  if (text !== lower && text !== text.toUpperCase()) {
    return invalid('a segwit address is all lower case or all upper case, never mixed')
  }
  // v0 is checksummed with bech32 and v1+ with bech32m (BIP 350); the version decides which.
  const asBech32 = bech32.decodeUnsafe(lower)
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower)
  const decoded = asBech32 ?? asBech32m
  if (!decoded) return BAD_CHECKSUM
  const [version, ...words] = decoded.words
  if (version === undefined) return invalid('the address has no witness program')
  if ((version === 0) !== (decoded === asBech32)) return BAD_CHECKSUM
  const program = bech32.fromWordsUnsafe(words)
  if (!program) return invalid('the witness program is malformed')
  if (version === 0) {
    if (program.length !== 20 && program.length !== 32) {
      return invalid('the witness program has the wrong length')
    }
  } else if (version === 1) {
    if (program.length !== 32) return invalid('the witness program has the wrong length')
  } else if (version <= 16) {
    return invalid(`segwit version ${version} is not spendable yet; funds sent to it are lost`)
  } else {
    return invalid('not a Bitcoin address: there is no segwit version above 16')
  }
  if (isAllZero(program)) return BURN
  return valid(lower)
}

function validateEvm(text: string): AddressCheck {
  if (!text.startsWith('0x')) return invalid('an address on this chain starts with 0x')
  const digits = text.slice(2)
  if (!/^[0-9a-fA-F]*$/.test(digits)) return invalid('the address has a non-hexadecimal character')
  if (digits.length !== 40) return invalid('the address has 40 hexadecimal digits after 0x')
  const accountId = hexToBytes(digits.toLowerCase())
  const checksummed = eip55(accountId)
  const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase()
  if (mixedCase && text !== checksummed) {
    return invalid('the mixed-case checksum (EIP-55) does not match: a character was mistyped')
  }
  if (isAllZero(accountId)) return BURN
  return valid(checksummed)
}

function validateTron(text: string): AddressCheck {
  if (/^0x/i.test(text) || /^41[0-9a-fA-F]{40}$/.test(text)) {
    return invalid('write the Tron address in its base58 form, starting with T')
  }
  if (!BASE58_TEXT.test(text)) return invalid('not a Tron address')
  let payload: Uint8Array
  try {
    payload = base58check.decode(text)
  } catch {
    return text.startsWith('T') ? BAD_CHECKSUM : invalid('not a Tron address')
  }
  if (payload.length !== 21 || payload[0] !== TRON_PREFIX) return invalid('not a Tron address')
  if (isAllZero(payload.subarray(1))) return BURN
  return valid(text)
}

function validateSolana(text: string, allowOffCurve: boolean): AddressCheck {
  if (!BASE58_TEXT.test(text)) return invalid('not a Solana address: it has a non-base58 character')
  // Decoding cannot fail once the alphabet is right; 32 bytes is 32 to 44 characters.
  const bytes = base58.decode(text)
  if (bytes.length !== 32) return invalid('not a Solana address: it does not decode to 32 bytes')
  // Base58 has one spelling per byte string (leading '1's are leading zero bytes, one to one),
  // so the text as given is already canonical.
  if (isAllZero(bytes)) return invalid('that is the System Program, not a wallet')
  if (!allowOffCurve && !onEd25519Curve(bytes)) {
    return invalid(
      'a program-derived address (off the ed25519 curve), not a wallet: use the owner wallet address',
    )
  }
  return valid(text)
}

/** As Solana's `is_on_curve`: the 32 bytes decompress to a point (non-canonical y allowed). */
function onEd25519Curve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true)
    return true
  } catch {
    return false
  }
}
