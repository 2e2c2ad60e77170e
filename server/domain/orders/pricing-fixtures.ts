/** The currencies of the pricing tests: as the catalogue prices them, with made-up uuids. */
import type { PricedCurrency } from './pricing.ts'

export const currency = (
  code: string,
  type: PricedCurrency['type'],
  decimals: number,
  chain: PricedCurrency['chain'] = null,
): PricedCurrency => ({ uuid: `${code}-${chain ?? 'fiat'}`, code, type, decimals, chain })

export const BTC = currency('BTC', 'native', 8, 'bitcoin')
export const ETH = currency('ETH', 'native', 18, 'ethereum')
export const TRX = currency('TRX', 'native', 6, 'tron')
export const USDT_ETH = currency('USDT', 'token', 6, 'ethereum')
export const USDT_TRON = currency('USDT', 'token', 6, 'tron')
export const USDC_ETH = currency('USDC', 'token', 6, 'ethereum')
export const EUR = currency('EUR', 'fiat', 2)
export const USD = currency('USD', 'fiat', 2)
export const GBP = currency('GBP', 'fiat', 2)
