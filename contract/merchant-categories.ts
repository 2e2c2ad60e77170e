import type { Language } from './languages.ts'

/*
 * Card merchants in groups people reason about — what insights sum spending
 * by (issue 31), and what card controls will block by (issue 30). A group is
 * made of ISO 18245 merchant category code (MCC) ranges, with its name in
 * every language (contract/languages.ts). Only that import: the app takes the
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
  /** In each language of contract/languages.ts. */
  names: Record<Language, string>
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
    names: {
      en: 'Gambling',
      ru: 'Азартные игры',
      uk: 'Азартні ігри',
      de: 'Glücksspiel',
      es: 'Apuestas',
      'pt-BR': 'Apostas',
      tr: 'Şans oyunları',
      id: 'Perjudian',
      fa: 'قمار',
      ar: 'القمار',
    },
  },
  crypto: {
    // Non-financial institutions: foreign currency, quasi-cash — where crypto is bought.
    ranges: [one(6051)],
    names: {
      en: 'Crypto',
      ru: 'Криптовалюта',
      uk: 'Криптовалюта',
      de: 'Krypto',
      es: 'Cripto',
      'pt-BR': 'Cripto',
      tr: 'Kripto',
      id: 'Kripto',
      fa: 'رمزارز',
      ar: 'العملات المشفرة',
    },
  },
  adult: {
    // Adult content by teleservices, dating and escort services.
    ranges: [one(5967), one(7273)],
    names: {
      en: 'Adult',
      ru: 'Для взрослых',
      uk: 'Для дорослих',
      de: 'Nur für Erwachsene',
      es: 'Contenido para adultos',
      'pt-BR': 'Conteúdo adulto',
      tr: 'Yetişkin içerik',
      id: 'Konten dewasa',
      fa: 'بزرگسالان',
      ar: 'محتوى للبالغين',
    },
  },
  cash: {
    // Wires and money orders, cash at a counter or an ATM, quasi-cash, stored-value loads.
    ranges: [one(4829), [6010, 6011], one(6050), one(6540)],
    names: {
      en: 'Cash and transfers',
      ru: 'Наличные и переводы',
      uk: 'Готівка й перекази',
      de: 'Bargeld und Überweisungen',
      es: 'Efectivo y transferencias',
      'pt-BR': 'Saques e transferências',
      tr: 'Nakit ve transferler',
      id: 'Tunai dan transfer',
      fa: 'نقد و انتقال',
      ar: 'النقد والتحويلات',
    },
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
    names: {
      en: 'Travel',
      ru: 'Путешествия',
      uk: 'Подорожі',
      de: 'Reisen',
      es: 'Viajes',
      'pt-BR': 'Viagens',
      tr: 'Seyahat',
      id: 'Perjalanan',
      fa: 'سفر',
      ar: 'السفر',
    },
  },
  groceries: {
    // Supermarkets, butchers, sweets, dairies, bakeries, other food shops.
    ranges: [one(5411), one(5422), one(5441), one(5451), one(5462), one(5499)],
    names: {
      en: 'Groceries',
      ru: 'Продукты',
      uk: 'Продукти',
      de: 'Lebensmittel',
      es: 'Supermercado',
      'pt-BR': 'Mercado',
      tr: 'Market',
      id: 'Belanja harian',
      fa: 'خواربار',
      ar: 'البقالة',
    },
  },
  restaurants: {
    // Caterers, restaurants, bars, fast food.
    ranges: [[5811, 5814]],
    names: {
      en: 'Restaurants and cafés',
      ru: 'Кафе и рестораны',
      uk: 'Кафе й ресторани',
      de: 'Restaurants und Cafés',
      es: 'Restaurantes y cafeterías',
      'pt-BR': 'Restaurantes e cafés',
      tr: 'Restoran ve kafeler',
      id: 'Restoran dan kafe',
      fa: 'رستوران و کافه',
      ar: 'المطاعم والمقاهي',
    },
  },
  transport: {
    // Commuter transport, taxis, buses, tolls, transport services, fuel, parking.
    ranges: [one(4111), one(4121), one(4131), one(4784), one(4789), [5541, 5542], one(7523)],
    names: {
      en: 'Transport',
      ru: 'Транспорт',
      uk: 'Транспорт',
      de: 'Mobilität',
      es: 'Transporte',
      'pt-BR': 'Transporte',
      tr: 'Ulaşım',
      id: 'Transportasi',
      fa: 'حمل‌ونقل',
      ar: 'المواصلات',
    },
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
    names: {
      en: 'Shopping',
      ru: 'Покупки',
      uk: 'Покупки',
      de: 'Shopping',
      es: 'Compras',
      'pt-BR': 'Compras',
      tr: 'Alışveriş',
      id: 'Belanja',
      fa: 'خرید',
      ar: 'التسوق',
    },
  },
  entertainment: {
    // Pay TV and streaming, digital media and games, cinemas and films, theatre and tickets, sports clubs,
    // attractions, arcades, amusement parks, recreation.
    ranges: [one(4899), [5815, 5816], one(7829), [7832, 7841], [7911, 7999]],
    names: {
      en: 'Entertainment',
      ru: 'Развлечения',
      uk: 'Розваги',
      de: 'Freizeit',
      es: 'Ocio',
      'pt-BR': 'Lazer',
      tr: 'Eğlence',
      id: 'Hiburan',
      fa: 'سرگرمی',
      ar: 'الترفيه',
    },
  },
  utilities: {
    // Telecom, internet, utilities (electricity, gas, water), government services.
    ranges: [one(4812), one(4814), one(4816), one(4821), one(4900), one(9399)],
    names: {
      en: 'Bills and utilities',
      ru: 'Связь и коммунальные',
      uk: 'Зв’язок і комунальні',
      de: 'Rechnungen und Nebenkosten',
      es: 'Facturas y suministros',
      'pt-BR': 'Contas e serviços',
      tr: 'Faturalar',
      id: 'Tagihan dan utilitas',
      fa: 'قبوض',
      ar: 'الفواتير والخدمات',
    },
  },
  health: {
    // Ambulances, medical supplies and drugs, pharmacies, hearing aids and orthopaedics,
    // doctors, dentists, hospitals and other medical services.
    ranges: [one(4119), one(5047), one(5122), one(5912), [5975, 5976], [8011, 8099]],
    names: {
      en: 'Health',
      ru: 'Здоровье',
      uk: 'Здоров’я',
      de: 'Gesundheit',
      es: 'Salud',
      'pt-BR': 'Saúde',
      tr: 'Sağlık',
      id: 'Kesehatan',
      fa: 'سلامت',
      ar: 'الصحة',
    },
  },
  other: {
    ranges: [],
    names: {
      en: 'Other',
      ru: 'Прочее',
      uk: 'Інше',
      de: 'Sonstiges',
      es: 'Otros',
      'pt-BR': 'Outros',
      tr: 'Diğer',
      id: 'Lainnya',
      fa: 'سایر',
      ar: 'أخرى',
    },
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
