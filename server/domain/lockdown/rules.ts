/**
 * Lockdown, the pure part (issue 30): when one may be lifted, and what its
 * answer says. No IO here.
 */

import type { Language } from '../../../contract/languages.ts'
import {
  LOCKDOWN_ACTS,
  LOCKDOWN_MIN_SECONDS,
  type Lockdown,
  type LockdownAct,
  type LockdownVia,
} from '../../../contract/lockdown.ts'

/** The earliest a lockdown begun at `startedAt` may be lifted. */
export const liftAfter = (startedAt: Date) =>
  new Date(startedAt.getTime() + LOCKDOWN_MIN_SECONDS * 1000)

/** Whether it may be lifted at `now`: LOCKDOWN_MIN_SECONDS after it began, not a moment before. */
export const mayLift = (startedAt: Date, now: Date) =>
  now.getTime() >= liftAfter(startedAt).getTime()

/** A lockdown as stored (repository.ts). */
interface Row {
  started_at: Date
  reason: string | null
  via: LockdownVia
  cards_frozen: number
  sessions_ended: number
}

/** The answer of GET /user/lockdown: the active lockdown, or none. */
export function lockdownOf(row: Row | undefined): Lockdown {
  return row
    ? {
        active: true,
        started_at: row.started_at.toISOString(),
        lift_after: liftAfter(row.started_at).toISOString(),
        reason: row.reason,
        via: row.via,
        refused: [...LOCKDOWN_ACTS],
        cards_frozen: row.cards_frozen,
        sessions_ended: row.sessions_ended,
      }
    : {
        active: false,
        started_at: null,
        lift_after: null,
        reason: null,
        via: null,
        refused: [...LOCKDOWN_ACTS],
        cards_frozen: 0,
        sessions_ended: 0,
      }
}

const DONE: Record<Language, string> = {
  en: 'Done: your cards are frozen and other devices are signed out.',
  ru: 'Готово: карты заморожены, другие устройства отключены.',
  uk: 'Готово: ваші картки заморожено, а на інших пристроях виконано вихід.',
  de: 'Erledigt: Deine Karten sind eingefroren und andere Geräte abgemeldet.',
  es: 'Hecho: tus tarjetas están congeladas y se ha cerrado la sesión en los demás dispositivos.',
  'pt-BR': 'Pronto: seus cartões foram congelados e os outros dispositivos foram desconectados.',
  tr: 'Tamam: kartlarınız donduruldu ve diğer cihazlarda oturum kapatıldı.',
  id: 'Selesai: kartu Anda dibekukan dan perangkat lain dikeluarkan.',
  fa: 'انجام شد: کارت‌هایتان مسدود موقت شدند و از دستگاه‌های دیگر خارج شدید.',
  ar: 'تم: جُمّدت بطاقاتك وسُجّل الخروج من الأجهزة الأخرى.',
}

/** What a lockdown answers the person, whichever way it came (and its alert's body). */
export const lockdownDone = (language: Language) => DONE[language]

/** What LOCKDOWN_ACTIVE's detail says is refused. */
const ACTS: Record<LockdownAct, string> = {
  withdrawals: 'withdrawals are',
  payouts: 'new payout destinations are',
  api_keys: 'new API keys are',
  webhooks: 'new webhook endpoints are',
  contact_changes: 'changing your e-mail or phone is',
}

export const lockdownRefusal = (act: LockdownAct) =>
  `Your account is locked down: ${ACTS[act]} refused until you lift it in Sign-in and security.`
