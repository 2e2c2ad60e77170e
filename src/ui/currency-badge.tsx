/**
 * A currency's round badge: its sign where it has a well-known one, else its
 * first letter, on the colour people know it by. Decorative: the code is
 * always written beside it.
 */
const KNOWN: Record<string, { sign: string; tone: string }> = {
  BTC: { sign: 'B', tone: 'btc' },
  ETH: { sign: 'Ξ', tone: 'eth' },
  USDT: { sign: '₮', tone: 'usdt' },
  USDC: { sign: '$', tone: 'usdc' },
  TRX: { sign: 'T', tone: 'trx' },
  SOL: { sign: 'S', tone: 'sol' },
  POL: { sign: 'P', tone: 'pol' },
  EUR: { sign: '€', tone: 'fiat' },
  USD: { sign: '$', tone: 'fiat' },
  GBP: { sign: '£', tone: 'fiat' },
  RUB: { sign: '₽', tone: 'fiat' },
}

export function CurrencyBadge(props: { code: string }) {
  const known = KNOWN[props.code.toUpperCase()]
  return (
    <span className={`currency-badge currency-badge-${known?.tone ?? 'other'}`} aria-hidden="true">
      {known?.sign ?? props.code.slice(0, 1).toUpperCase()}
    </span>
  )
}
