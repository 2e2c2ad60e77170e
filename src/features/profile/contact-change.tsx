import { useState } from 'react'
import type { User } from '../../../contract/user.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button, Notice } from '../../ui/components.tsx'
import { OtpSteps } from '../../ui/otp-steps.tsx'
import { displayPhone } from './display-phone.ts'
import { useConfirmContactChange, useRequestContactChange } from './mutations.ts'

const digitsOf = (text: string) => text.replace(/\D/g, '')

/**
 * One contact (e-mail or phone) and the two-step way to change it: the new
 * value, a code sent to it, the code. The current session stays signed in;
 * the server ends the others.
 */
export function ContactChange({ channel, user }: { channel: 'email' | 'sms'; user: User }) {
  const { t } = useI18n()
  const request = useRequestContactChange(channel)
  const verify = useConfirmContactChange(channel)
  const [open, setOpen] = useState(false)
  const [changed, setChanged] = useState(false)
  const isEmail = channel === 'email'
  const current = isEmail ? user.email : user.phone

  const close = () => {
    request.reset()
    verify.reset()
    setOpen(false)
  }

  return (
    <div className="stack contact">
      <dl className="details">
        <dt>{t(isEmail ? 'profile.email' : 'profile.phone')}</dt>
        <dd data-testid={isEmail ? 'profile-email' : 'profile-phone'}>
          {current ? (
            isEmail ? (
              current
            ) : (
              <bdi dir="ltr">{displayPhone(current)}</bdi>
            )
          ) : (
            t('profile.notSet')
          )}
        </dd>
      </dl>
      {changed && !open && (
        <Notice>{t(isEmail ? 'profile.emailChanged' : 'profile.phoneChanged')}</Notice>
      )}
      {open ? (
        <OtpSteps
          channel={channel}
          label={t(isEmail ? 'profile.newEmail' : 'profile.newPhone')}
          intro={
            <p className="muted">{t(isEmail ? 'profile.newEmailLead' : 'profile.newPhoneLead')}</p>
          }
          request={request}
          verify={verify}
          reject={(target) => {
            const same = isEmail
              ? target.toLowerCase() === current?.toLowerCase()
              : digitsOf(target) === current
            return same ? t('profile.sameContact') : undefined
          }}
          onVerified={() => {
            close()
            setChanged(true)
          }}
          onCancel={close}
          autoFocus
          level={3}
        />
      ) : (
        <p>
          <Button
            variant="secondary"
            onClick={() => {
              setChanged(false)
              setOpen(true)
            }}
          >
            {current
              ? t(isEmail ? 'profile.changeEmail' : 'profile.changePhone')
              : t(isEmail ? 'profile.addEmail' : 'profile.addPhone')}
          </Button>
        </p>
      )}
    </div>
  )
}
