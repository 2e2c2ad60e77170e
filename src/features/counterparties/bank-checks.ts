/*
 * Cheap checks that catch a typo before the server is asked. They are never
 * stricter than the server (ibantools, the ABA checksum, the chain's address
 * codec): a value they pass may still be refused there, one they refuse the
 * server would refuse too. No country tables here: they would weigh more
 * than the rest of the screen, and the server has them.
 */

import { inFours } from '../../ui/copy-button.tsx'

/** Letters and digits only, upper case: the "electronic format" the server stores. */
export const electronicIban = (text: string) => text.replace(/[^0-9a-z]/gi, '').toUpperCase()

/** The longest IBAN of any country (ISO 13616). */
export const IBAN_MAX_LENGTH = 34

/** Grouped in fours as printed on statements: "DE89 3704 0044 0532 0130 00". */
export const groupIban = (text: string) => inFours(electronicIban(text).slice(0, IBAN_MAX_LENGTH))

/**
 * Where the caret belongs in `grouped` so that `characters` letters and
 * digits stay before it, as they were before the text was regrouped.
 */
export function caretAfter(grouped: string, characters: number): number {
  if (characters <= 0) return 0
  let seen = 0
  for (let index = 0; index < grouped.length; index++) {
    if (grouped[index] !== ' ') seen++
    if (seen === characters) return index + 1
  }
  return grouped.length
}

export type IbanProblem = 'format' | 'checksum'

/**
 * Country letters, two check digits and 11–30 letters or digits (Norway's 15
 * to Saint Lucia's 32, with room to spare), then ISO 7064 mod 97-10: the four
 * first characters move to the end, letters count as 10–35, the remainder must be 1.
 */
export function checkIban(text: string): IbanProblem | undefined {
  const iban = electronicIban(text)
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return 'format'
  let remainder = 0
  for (const character of iban.slice(4) + iban.slice(0, 4)) {
    const value = Number.parseInt(character, 36)
    // A letter is two digits long (10–35), a digit one: the remainder never passes 97·100.
    remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97
  }
  return remainder === 1 ? undefined : 'checksum'
}

/** ISO 9362: bank (4 letters), country (2 letters), location (2), optional branch (3). */
export const isBic = (text: string) => /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/i.test(text.trim())

/**
 * An ABA routing number: 9 digits whose weighted sum (3, 7, 1 repeating) is
 * a multiple of 10.
 */
export function isRoutingNumber(text: string): boolean {
  const digits = text.trim()
  if (!/^\d{9}$/.test(digits)) return false
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1]
  const sum = weights.reduce((total, weight, index) => total + weight * Number(digits[index]), 0)
  return sum % 10 === 0
}

/** US bank account numbers: 4 to 17 digits (NACHA). */
export const isUsAccountNumber = (text: string) => /^\d{4,17}$/.test(text.trim())

const BASE58 = '[1-9A-HJ-NP-Za-km-z]'

/**
 * The shape of an address for each address format of the catalogue. Looser
 * than the server's codecs (no checksums): a shape that fails here can never
 * be a valid address there.
 */
const ADDRESS_SHAPES: Record<string, RegExp> = {
  evm: /^0x[0-9a-fA-F]{40}$/,
  tron: new RegExp(`^T${BASE58}{33}$`),
  solana: new RegExp(`^${BASE58}{32,44}$`),
  // Bitcoin: bech32/bech32m (one case throughout) or legacy base58 P2PKH/P2SH.
  bech32: new RegExp(
    `^(bc1[02-9ac-hj-np-z]{8,87}|BC1[02-9AC-HJ-NP-Z]{8,87}|[13]${BASE58}{24,33})$`,
  ),
}

/** Whether `address` could be an address of that format; unknown formats pass (the server decides). */
export function looksLikeAddress(format: string | undefined, address: string): boolean {
  const text = address.trim()
  if (/\s/.test(text)) return false
  const shape = format ? ADDRESS_SHAPES[format] : undefined
  return shape ? shape.test(text) : true
}

/** A uuid as the API writes them (any version). */
export const isUuid = (text: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text.trim())
