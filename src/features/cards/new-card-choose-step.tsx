import { useId } from 'react'
import type { CardFormFactor } from '../../../contract/cards.ts'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Button } from '../../ui/components.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { accountName, formFactorLabel } from './labels.ts'
import { StepFrame } from './new-card-step-frame.tsx'
import type { Funding } from './use-new-card-form.ts'

/** The first step: how the card is funded (its own account or an existing one), its form, its name. */
export function NewCardChooseStep(props: {
  focus: boolean
  funding: Funding
  onFunding: (funding: Funding) => void
  standAlonePrograms: CardProgram[]
  programId: string
  onProgram: (id: string) => void
  accounts: FiatAccount[]
  accountId: string
  onAccount: (id: string) => void
  formFactors: CardFormFactor[]
  formFactor: CardFormFactor | undefined
  onFormFactor: (factor: CardFormFactor) => void
  nickName: string
  onNickName: (name: string) => void
  ready: boolean
  onNext: () => void
}) {
  const { t, language } = useI18n()
  const formId = useId()
  return (
    <StepFrame
      title={t('cards.new.stepChoose')}
      focus={props.focus}
      primary={{ text: t('cards.new.continue'), enabled: props.ready, busy: false }}
      onSubmit={(event) => {
        event.preventDefault()
        if (props.ready) props.onNext()
      }}
    >
      <fieldset className="stack">
        <legend>{t('cards.new.funding')}</legend>
        <label className="row">
          <input
            type="radio"
            name={`${formId}-funding`}
            checked={props.funding === 'stand-alone'}
            onChange={() => props.onFunding('stand-alone')}
          />
          {t('cards.new.standAlone')}
        </label>
        <label className="row">
          <input
            type="radio"
            name={`${formId}-funding`}
            checked={props.funding === 'account'}
            onChange={() => props.onFunding('account')}
          />
          {t('cards.new.onAccount')}
        </label>
      </fieldset>

      {props.funding === 'stand-alone' ? (
        props.standAlonePrograms.length === 0 ? (
          <p>{t('cards.new.noPrograms')}</p>
        ) : (
          <SelectField
            label={t('cards.new.program')}
            value={props.programId}
            onChange={(event) => props.onProgram(event.target.value)}
          >
            {props.standAlonePrograms.map((item) => (
              <option key={item.id} value={item.id}>
                {t('cards.new.programOption', {
                  name: item.name,
                  currency: item.currency,
                  fee: formatMoney(language, {
                    amount: item.fees.issue,
                    currency: item.currency,
                    chain: null,
                  }),
                })}
              </option>
            ))}
          </SelectField>
        )
      ) : props.accounts.length === 0 ? (
        <p>{t('cards.new.noAccounts')}</p>
      ) : (
        <SelectField
          label={t('cards.new.account')}
          value={props.accountId}
          onChange={(event) => props.onAccount(event.target.value)}
        >
          {props.accounts.map((item) => (
            <option key={item.id} value={item.id}>
              {t('cards.new.accountOption', {
                program: accountName(t, item),
                balance: formatMoney(language, {
                  amount: item.balance,
                  currency: item.currency,
                  chain: null,
                }),
              })}
            </option>
          ))}
        </SelectField>
      )}

      {props.formFactors.length > 0 && (
        <fieldset className="stack">
          <legend>{t('cards.formFactor')}</legend>
          {props.formFactors.map((factor) => (
            <label key={factor} className="row">
              <input
                type="radio"
                name={`${formId}-form`}
                checked={props.formFactor === factor}
                onChange={() => props.onFormFactor(factor)}
              />
              {formFactorLabel(t, factor)}
            </label>
          ))}
        </fieldset>
      )}

      <TextField
        label={t('cards.new.nickName')}
        value={props.nickName}
        maxLength={64}
        onChange={(event) => props.onNickName(event.target.value)}
      />
      <div>
        <Button type="submit" disabled={!props.ready}>
          {t('cards.new.continue')}
        </Button>
      </div>
    </StepFrame>
  )
}
