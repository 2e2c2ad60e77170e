import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { CardDetail, CardLimits } from '../../../contract/cards.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ApiError } from '../../net/api.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { FieldList } from '../../ui/field-list.tsx'
import { TextField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { CardError } from './card-secrets-panel.tsx'
import { useCardLimits, useRenameCard } from './mutations.ts'

/** The contract's NickName: 1–64 characters once trimmed, no control characters. */
const validNickName = (nick: string) =>
  nick.length >= 1 &&
  nick.length <= 64 &&
  ![...nick].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)

/** Renames the card; one request_id per edit, so a retried save never renames twice. */
export function RenameCard(props: { card: CardDetail; disabled: boolean }) {
  const { t } = useI18n()
  const rename = useRenameCard(props.card)
  const [name, setName] = useState(props.card.nick_name ?? '')
  const [invalid, setInvalid] = useState(false)
  const requestId = useRef(crypto.randomUUID())

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const nick = name.trim()
    if (!validNickName(nick)) {
      setInvalid(true)
      return
    }
    setInvalid(false)
    rename.mutate(
      { nick_name: nick, request_id: requestId.current },
      {
        onSuccess: () => {
          requestId.current = crypto.randomUUID()
        },
      },
    )
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <TextField
        label={t('cards.rename.label')}
        value={name}
        maxLength={64}
        onChange={(event) => {
          setName(event.target.value)
          // Another name is another request.
          requestId.current = crypto.randomUUID()
          rename.reset()
        }}
        error={invalid ? t('cards.rename.invalid') : undefined}
        disabled={props.disabled}
      />
      <SaveRow label={t('cards.rename.save')} busy={rename.isPending} disabled={props.disabled} />
      {rename.isSuccess && <Notice>{t('cards.rename.saved')}</Notice>}
      {rename.isError && <CardError error={rename.error} />}
    </form>
  )
}

type LimitField = keyof CardLimits
const LIMIT_FIELDS: LimitField[] = ['per_transaction', 'daily', 'monthly']
const AMOUNT = /^\d+(\.\d+)?$/

/** A positive amount with at most `decimals` places ("200", "19.99"). */
export function validAmount(value: string, decimals: number) {
  const places = value.split('.')[1]?.length ?? 0
  return AMOUNT.test(value) && places <= decimals && parseDecimal(value).units > 0n
}

/** The faults of a limits form, by field: positive amounts, per transaction ≤ daily ≤ monthly. */
export function limitFaults(
  limits: CardLimits,
  decimals: number,
): Partial<Record<LimitField, 'amount' | 'aboveDaily' | 'aboveMonthly'>> {
  const faults: Partial<Record<LimitField, 'amount' | 'aboveDaily' | 'aboveMonthly'>> = {}
  for (const field of LIMIT_FIELDS) {
    if (!validAmount(limits[field].trim(), decimals)) faults[field] = 'amount'
  }
  if (Object.keys(faults).length > 0) return faults
  const [perTx, daily, monthly] = LIMIT_FIELDS.map((field) => parseDecimal(limits[field]))
  if (compare(perTx!, daily!) > 0) faults.per_transaction = 'aboveDaily'
  if (compare(daily!, monthly!) > 0) faults.daily = 'aboveMonthly'
  return faults
}

/** The limits as they stand, as amounts ("€1,000.00"), above the form that changes them. */
export function LimitsSummary(props: { card: CardDetail }) {
  const { t, language } = useI18n()
  const { card } = props
  const amount = (value: string) =>
    formatMoney(language, { amount: value, currency: card.currency, chain: null })
  return (
    <FieldList
      rows={LIMIT_FIELDS.map((field) => [
        t(`cards.limits.now.${field}`),
        amount(card.limits[field]),
      ])}
    />
  )
}

/** Fiat currencies here have 2 decimals (the catalogue's EUR, USD, GBP). */
export const FIAT_DECIMALS = 2

export function LimitsEditor(props: { card: CardDetail; disabled: boolean }) {
  const { t } = useI18n()
  const save = useCardLimits(props.card)
  const [limits, setLimits] = useState<CardLimits>(props.card.limits)
  const [faults, setFaults] = useState<ReturnType<typeof limitFaults>>({})
  const firstFault = useRef<HTMLInputElement>(null)
  const firstField = LIMIT_FIELDS.find((field) => faults[field])

  useEffect(() => {
    if (firstField) firstFault.current?.focus()
  }, [firstField])

  // 422 INVALID_LIMITS names each field: /body/<field>.
  const serverFaults = new Set(
    save.error instanceof ApiError
      ? (save.error.problem?.errors ?? []).map((item) => item.field.replace('/body/', ''))
      : [],
  )

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = limitFaults(limits, FIAT_DECIMALS)
    setFaults(found)
    if (Object.keys(found).length > 0) return
    save.mutate({
      per_transaction: limits.per_transaction.trim(),
      daily: limits.daily.trim(),
      monthly: limits.monthly.trim(),
    })
  }

  const label = {
    per_transaction: t('cards.limits.perTransaction', { currency: props.card.currency }),
    daily: t('cards.limits.daily', { currency: props.card.currency }),
    monthly: t('cards.limits.monthly', { currency: props.card.currency }),
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      {LIMIT_FIELDS.map((field) => {
        const fault = faults[field]
        return (
          <TextField
            key={field}
            ref={field === firstField ? firstFault : undefined}
            label={label[field]}
            adornment={props.card.currency}
            inputMode="decimal"
            value={limits[field]}
            onChange={(event) => {
              setLimits((current) => ({ ...current, [field]: event.target.value }))
              save.reset()
            }}
            error={
              fault
                ? t(`cards.limits.${fault}`)
                : serverFaults.has(field)
                  ? t('cards.limits.amount')
                  : undefined
            }
            disabled={props.disabled}
          />
        )
      })}
      <SaveRow label={t('cards.limits.save')} busy={save.isPending} disabled={props.disabled} />
      {save.isSuccess && <Notice>{t('cards.limits.saved')}</Notice>}
      {save.isError && serverFaults.size === 0 && <CardError error={save.error} />}
    </form>
  )
}

/** A settings form's submit button, off while offline with the reason beside it. */
export function SaveRow(props: { label: string; busy: boolean; disabled: boolean }) {
  const server = useNeedsServer()
  return (
    <div>
      <Button
        type="submit"
        variant="secondary"
        busy={props.busy}
        disabled={props.disabled}
        {...server.disabledProps}
      >
        {props.label}
      </Button>
      {server.reason}
    </div>
  )
}
