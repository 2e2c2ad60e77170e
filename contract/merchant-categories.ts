/*
 * Card merchants in groups people reason about — what insights sum spending
 * by (issue 31), and what card controls will block by (issue 30). A group is
 * made of ISO 18245 merchant category code (MCC) ranges, with its name in
 * every language the server words things in. No imports: the app takes the
 * values too, and no byte of TypeBox may come with them (contract/README.md).
 */

/**
 * The groups, in the order a card's controls list them: the ones people
 * block first (gambling, crypto, adult, cash), then everyday spending, then
 * `other` — every code no range holds.
 */
export const MERCHANT_CATEGORY_GROUPS = [
  'gambling',
  'crypto',
  'adult',
  'cash',
  'travel',
  'groceries',
  'restaurants',
  'transport',
  'shopping',
  'entertainment',
  'utilities',
  'health',
  'other',
] as const
export type MerchantCategoryGroup = (typeof MERCHANT_CATEGORY_GROUPS)[number]

/** Inclusive MCC bounds, as numbers: `[5811, 5814]` holds 5811, 5812, 5813 and 5814. */
export type MccRange = readonly [from: number, to: number]

export interface MerchantCategory {
  ranges: readonly MccRange[]
  names: { en: string; ru: string }
}

const one = (mcc: number): MccRange => [mcc, mcc]

/**
 * Each group's ranges (from the card networks' MCC lists) and names. A code
 * belongs to the first group, in MERCHANT_CATEGORY_GROUPS' order, whose
 * ranges hold it: the blockable groups come first, so a code listed there
 * too (5967, direct marketing, is also adult content) is blocked, never
 * merely shopping. `other` has no ranges: it is what is left.
 */
export const MERCHANT_CATEGORIES: Record<MerchantCategoryGroup, MerchantCategory> = {
  gambling: {
    // Betting and casinos, government lotteries and licensed online casinos, racing.
    ranges: [one(7995), [7800, 7802], one(9406)],
    names: { en: 'Gambling', ru: 'Азартные игры' },
  },
  crypto: {
    // Non-financial institutions: foreign currency, quasi-cash — where crypto is bought.
    ranges: [one(6051)],
    names: { en: 'Crypto', ru: 'Криптовалюта' },
  },
  adult: {
    // Adult content by teleservices, dating and escort services.
    ranges: [one(5967), one(7273)],
    names: { en: 'Adult', ru: 'Для взрослых' },
  },
  cash: {
    // Wires and money orders, cash at a counter or an ATM, quasi-cash, stored-value loads.
    ranges: [one(4829), [6010, 6011], one(6050), one(6540)],
    names: { en: 'Cash and transfers', ru: 'Наличные и переводы' },
  },
  travel: {
    // Airlines, car rental and hotels by brand (3000–3999), rail, cruises, airlines,
    // airports, travel agencies, lodging, campgrounds, car and truck rental.
    ranges: [
      [3000, 3999],
      one(4011),
      one(4112),
      one(4411),
      one(4511),
      one(4582),
      [4722, 4723],
      [7011, 7012],
      [7032, 7033],
      [7512, 7513],
      one(7519),
    ],
    names: { en: 'Travel', ru: 'Путешествия' },
  },
  groceries: {
    // Supermarkets, butchers, sweets, dairies, bakeries, other food shops.
    ranges: [one(5411), one(5422), one(5441), one(5451), one(5462), one(5499)],
    names: { en: 'Groceries', ru: 'Продукты' },
  },
  restaurants: {
    // Caterers, restaurants, bars, fast food.
    ranges: [[5811, 5814]],
    names: { en: 'Restaurants and cafés', ru: 'Кафе и рестораны' },
  },
  transport: {
    // Commuter transport, taxis, buses, tolls, transport services, fuel, parking.
    ranges: [one(4111), one(4121), one(4131), one(4784), one(4789), [5541, 5542], one(7523)],
    names: { en: 'Transport', ru: 'Транспорт' },
  },
  shopping: {
    // Home supply and department stores, clothing and shoes, furniture and electronics,
    // apps and other digital goods, specialty retail (books, sports, toys, gifts, jewellery…).
    ranges: [
      [5200, 5399],
      [5600, 5699],
      [5700, 5799],
      [5817, 5818],
      [5931, 5966],
      [5968, 5974],
      [5977, 5999],
    ],
    names: { en: 'Shopping', ru: 'Покупки' },
  },
  entertainment: {
    // Pay TV and streaming, digital media and games, cinemas and films, theatre and tickets, sports clubs,
    // attractions, arcades, amusement parks, recreation.
    ranges: [one(4899), [5815, 5816], one(7829), [7832, 7841], [7911, 7999]],
    names: { en: 'Entertainment', ru: 'Развлечения' },
  },
  utilities: {
    // Telecom, internet, utilities (electricity, gas, water), government services.
    ranges: [one(4812), one(4814), one(4816), one(4821), one(4900), one(9399)],
    names: { en: 'Bills and utilities', ru: 'Связь и коммунальные' },
  },
  health: {
    // Ambulances, medical supplies and drugs, pharmacies, hearing aids and orthopaedics,
    // doctors, dentists, hospitals and other medical services.
    ranges: [one(4119), one(5047), one(5122), one(5912), [5975, 5976], [8011, 8099]],
    names: { en: 'Health', ru: 'Здоровье' },
  },
  other: {
    ranges: [],
    names: { en: 'Other', ru: 'Прочее' },
  },
}

/** The group of a four-digit MCC; `other` for a code no range holds, or no code. */
export function merchantCategoryOf(mcc: string | null | undefined): MerchantCategoryGroup {
  if (!mcc || !/^[0-9]{4}$/.test(mcc)) return 'other'
  const code = Number(mcc)
  for (const group of MERCHANT_CATEGORY_GROUPS) {
    if (MERCHANT_CATEGORIES[group].ranges.some(([from, to]) => code >= from && code <= to)) {
      return group
    }
  }
  return 'other'
}
