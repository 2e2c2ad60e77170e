import { PERSON_TRANSFER } from '../../../tests/support/event-payloads.ts'
import { type Case, NB } from './describe-case.ts'

/** Payments between people and scheduled runs, in both languages. */
export const PEOPLE_CASES: Case[] = [
  [
    'a payment sent',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: 'Dinner', to_name: 'Anna S.', status: 'COMPLETE' },
    'en',
    { title: 'You paid Anna S.', detail: 'Dinner', amount: '−€20.00' },
  ],
  [
    'a payment waiting for its contact',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com', status: 'AWAITING_CLAIM' },
    'en',
    {
      title: 'You paid anna@example.com',
      detail: 'Waiting for them to sign up',
      amount: '−€20.00',
    },
  ],
  [
    'a payment received',
    'transfer.received',
    { ...PERSON_TRANSFER, note: 'Dinner', from_name: 'Mia W.' },
    'en',
    { title: 'Mia W. sent you money', detail: 'Dinner', amount: '+€20.00' },
  ],
  [
    'a payment claimed',
    'transfer.claimed',
    { ...PERSON_TRANSFER, note: null, to_name: 'Anna S.' },
    'en',
    { title: 'Anna S. got your money', detail: 'They signed up and got it', amount: '−€20.00' },
  ],
  [
    'a payment back',
    'transfer.returned',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com' },
    'en',
    {
      title: 'Your money came back',
      detail: 'anna@example.com didn’t claim it within 7 days',
      amount: '+€20.00',
    },
  ],
  [
    'a request paid',
    'payment_request.paid',
    { ...PERSON_TRANSFER, note: 'Dinner', payer_name: 'Mia W.' },
    'en',
    { title: 'Mia W. paid your request', detail: 'Dinner', amount: '+€20.00' },
  ],
  [
    'a run short of money',
    'schedule.run_failed',
    { amount: '50.00', currency: 'EUR', reason: 'INSUFFICIENT_FUNDS', kind: 'transfer' },
    'en',
    {
      title: 'A scheduled payment didn’t go through',
      detail: 'Not enough money for €50.00. The next one runs as planned.',
      failed: true,
    },
  ],
  [
    'a run skipped',
    'schedule.run_skipped',
    { amount: '50.00', currency: 'EUR', reason: 'PRICE_MOVED', kind: 'exchange' },
    'en',
    {
      title: 'A scheduled exchange was skipped',
      detail: 'The price moved past your limit. The next one runs as planned.',
    },
  ],
  [
    'a payment sent',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: 'Dinner', to_name: 'Anna S.', status: 'COMPLETE' },
    'ru',
    { title: 'Вы отправили деньги: Anna S.', detail: 'Dinner', amount: `−20,00${NB}€` },
  ],
  [
    'a payment waiting for its contact',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com', status: 'AWAITING_CLAIM' },
    'ru',
    {
      title: 'Вы отправили деньги: anna@example.com',
      detail: 'Ждёт, пока получатель зарегистрируется',
      amount: `−20,00${NB}€`,
    },
  ],
  [
    'a payment received',
    'transfer.received',
    { ...PERSON_TRANSFER, note: 'Dinner', from_name: 'Mia W.' },
    'ru',
    { title: 'Mia W.: перевод вам', detail: 'Dinner', amount: `+20,00${NB}€` },
  ],
  [
    'a payment claimed',
    'transfer.claimed',
    { ...PERSON_TRANSFER, note: null, to_name: 'Anna S.' },
    'ru',
    {
      title: 'Anna S. получил(а) ваш перевод',
      detail: 'Получатель зарегистрировался и получил деньги',
      amount: `−20,00${NB}€`,
    },
  ],
  [
    'a payment back',
    'transfer.returned',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com' },
    'ru',
    {
      title: 'Перевод вернулся к вам',
      detail: 'anna@example.com не получил(а) перевод за 7 дней',
      amount: `+20,00${NB}€`,
    },
  ],
  [
    'a request paid',
    'payment_request.paid',
    { ...PERSON_TRANSFER, note: 'Dinner', payer_name: 'Mia W.' },
    'ru',
    { title: 'Mia W. оплатил(а) ваш запрос', detail: 'Dinner', amount: `+20,00${NB}€` },
  ],
  [
    'a run short of money',
    'schedule.run_failed',
    { amount: '50.00', currency: 'EUR', reason: 'INSUFFICIENT_FUNDS', kind: 'transfer' },
    'ru',
    {
      title: 'Регулярный платёж не прошёл',
      detail: `Не хватило средств на 50,00${NB}€. Следующий платёж — по расписанию.`,
      failed: true,
    },
  ],
  [
    'a run skipped',
    'schedule.run_skipped',
    { amount: '50.00', currency: 'EUR', reason: 'PRICE_MOVED', kind: 'exchange' },
    'ru',
    {
      title: 'Регулярный обмен пропущен',
      detail: 'Курс ушёл дальше вашего предела. Следующий обмен — по расписанию.',
    },
  ],
]
