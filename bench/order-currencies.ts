/** The pair the orders bench exchanges: USDT on Tron into bitcoin (uuids fixed by migration 0004). */
export const BENCH_FROM_CURRENCY = 'b3115d89-344b-4d51-abfa-76863eddec04'
export const BENCH_TO_CURRENCY = '68e31acb-683c-4237-a1d1-50edfa265bdf'
