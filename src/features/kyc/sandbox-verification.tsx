import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { KycDocumentType } from '../../../contract/kyc.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { useServedCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { DOCUMENT_TYPES } from './kyc-status.ts'
import { useSubmitSandboxApplicant } from './queries.ts'

type Step = 'document' | 'selfie' | 'review'

interface Applicant {
  firstName: string
  lastName: string
  documentType: KycDocumentType
  country: string
}

type Problems = Partial<Record<'firstName' | 'lastName' | 'country', string>>

/**
 * The sandbox's verification screen, standing in for a provider's SDK: the
 * document (whose, which, from where), a selfie step with a placeholder
 * picture (no camera: nothing of the person is captured), then a check and
 * the submission. The sandbox decides after a few seconds: a name containing
 * "reject" is declined.
 */
export function SandboxVerification(props: { onSubmitted: () => void; onCancel: () => void }) {
  const { t } = useI18n()
  const { countries } = useServedCountries()
  const submit = useSubmitSandboxApplicant()
  const [step, setStep] = useState<Step>('document')
  const [applicant, setApplicant] = useState<Applicant>({
    firstName: '',
    lastName: '',
    documentType: 'PASSPORT',
    country: '',
  })
  const [problems, setProblems] = useState<Problems>({})
  const [selfieTaken, setSelfieTaken] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)

  // Each step's heading takes the focus, so keyboard and screen-reader users start there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    headingRef.current?.focus()
  }, [step])

  const set = (field: keyof Applicant) => (value: string) =>
    setApplicant((current) => ({ ...current, [field]: value }))

  const checkDocument = (event: FormEvent) => {
    event.preventDefault()
    const found: Problems = {}
    if (!applicant.firstName.trim()) found.firstName = t('kyc.sandbox.firstNameMissing')
    if (!applicant.lastName.trim()) found.lastName = t('kyc.sandbox.lastNameMissing')
    if (!applicant.country) found.country = t('kyc.sandbox.countryMissing')
    setProblems(found)
    if (Object.keys(found).length === 0) setStep('selfie')
  }

  const send = () =>
    submit.mutate(
      {
        first_name: applicant.firstName.trim(),
        last_name: applicant.lastName.trim(),
        document_type: applicant.documentType,
        country: applicant.country,
        selfie: true,
      },
      { onSuccess: props.onSubmitted },
    )

  const countryName = countries?.find((country) => country.code === applicant.country)?.localName

  return (
    <section className="card stack" aria-labelledby="kyc-flow-title">
      <p className="muted">{t('kyc.sandbox.note')}</p>
      {step === 'document' && (
        <form className="stack" onSubmit={checkDocument} noValidate>
          <h2 id="kyc-flow-title" ref={headingRef} tabIndex={-1}>
            {t('kyc.sandbox.documentTitle')}
          </h2>
          <TextField
            label={t('kyc.sandbox.firstName')}
            value={applicant.firstName}
            onChange={(event) => set('firstName')(event.target.value)}
            autoComplete="given-name"
            maxLength={100}
            error={problems.firstName}
          />
          <TextField
            label={t('kyc.sandbox.lastName')}
            value={applicant.lastName}
            onChange={(event) => set('lastName')(event.target.value)}
            autoComplete="family-name"
            maxLength={100}
            error={problems.lastName}
            hint={t('kyc.sandbox.lastNameHint')}
          />
          <SelectField
            label={t('kyc.sandbox.documentType')}
            value={applicant.documentType}
            onChange={(event) => set('documentType')(event.target.value)}
          >
            {DOCUMENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`kyc.document.${type}`)}
              </option>
            ))}
          </SelectField>
          <CountryPicker
            kind="country"
            label={t('kyc.sandbox.country')}
            value={applicant.country}
            onChange={set('country')}
            countries={countries}
            error={problems.country}
            hint={t('kyc.sandbox.countryHint')}
          />
          <div className="row">
            <Button type="submit">{t('kyc.sandbox.continue')}</Button>
            <Button variant="quiet" onClick={props.onCancel}>
              {t('kyc.sandbox.cancel')}
            </Button>
          </div>
        </form>
      )}

      {step === 'selfie' && (
        <div className="stack">
          <h2 id="kyc-flow-title" ref={headingRef} tabIndex={-1}>
            {t('kyc.sandbox.selfieTitle')}
          </h2>
          <p>{t('kyc.sandbox.selfieLead')}</p>
          <figure className="kyc-selfie">
            <SelfiePlaceholder
              taken={selfieTaken}
              label={t(selfieTaken ? 'kyc.sandbox.selfieTaken' : 'kyc.sandbox.selfieFrame')}
            />
            <figcaption className="muted" role="status">
              {t(selfieTaken ? 'kyc.sandbox.selfieTaken' : 'kyc.sandbox.selfieFrame')}
            </figcaption>
          </figure>
          <div className="row">
            {selfieTaken ? (
              <>
                <Button onClick={() => setStep('review')}>{t('kyc.sandbox.continue')}</Button>
                <Button variant="quiet" onClick={() => setSelfieTaken(false)}>
                  {t('kyc.sandbox.selfieRetake')}
                </Button>
              </>
            ) : (
              <Button onClick={() => setSelfieTaken(true)}>{t('kyc.sandbox.selfieTake')}</Button>
            )}
            <Button variant="quiet" onClick={() => setStep('document')}>
              {t('kyc.sandbox.back')}
            </Button>
          </div>
        </div>
      )}

      {step === 'review' && (
        <div className="stack">
          <h2 id="kyc-flow-title" ref={headingRef} tabIndex={-1}>
            {t('kyc.sandbox.reviewTitle')}
          </h2>
          <dl className="details">
            <dt>{t('kyc.sandbox.name')}</dt>
            <dd>{`${applicant.firstName.trim()} ${applicant.lastName.trim()}`}</dd>
            <dt>{t('kyc.sandbox.documentType')}</dt>
            <dd>{t(`kyc.document.${applicant.documentType}`)}</dd>
            <dt>{t('kyc.sandbox.country')}</dt>
            <dd>{countryName ?? applicant.country}</dd>
            <dt>{t('kyc.sandbox.selfie')}</dt>
            <dd>{t('kyc.sandbox.selfieDone')}</dd>
          </dl>
          <ErrorSummary error={submit.error} />
          <div className="row">
            <Button onClick={send} busy={submit.isPending}>
              {t('kyc.sandbox.submit')}
            </Button>
            <Button variant="quiet" onClick={() => setStep('selfie')} disabled={submit.isPending}>
              {t('kyc.sandbox.back')}
            </Button>
          </div>
        </div>
      )}
    </section>
  )
}

/** A drawn face in a round frame: the sandbox's stand-in for a camera picture. */
function SelfiePlaceholder(props: { taken: boolean; label: string }) {
  return (
    <svg viewBox="0 0 120 120" role="img" aria-label={props.label}>
      <circle
        cx="60"
        cy="60"
        r="56"
        fill="none"
        stroke="currentColor"
        strokeDasharray={props.taken ? undefined : '6 6'}
        strokeWidth="3"
      />
      <circle cx="60" cy="48" r="20" fill="currentColor" opacity={props.taken ? 0.8 : 0.25} />
      <path
        d="M24 104c6-20 20-30 36-30s30 10 36 30"
        fill="currentColor"
        opacity={props.taken ? 0.8 : 0.25}
      />
    </svg>
  )
}
