import { useState } from 'react'
import { useLocation } from 'wouter'
import type { CardFormFactor } from '../../../contract/cards.ts'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import { href } from '../../paths.ts'
import { useClosingConfirmation, useHaptics } from '../../telegram/controls.tsx'
import { useConfirmOnce } from '../../ui/confirm-once.ts'
import { cleanAddress, type DeliveryAddress, serverAddressFaults } from './delivery.ts'
import { useIssueCard } from './mutations.ts'

export type Funding = 'stand-alone' | 'account'
type Step = 'choose' | 'address' | 'review'

const EMPTY_ADDRESS: DeliveryAddress = {
  recipient_name: '',
  line1: '',
  line2: '',
  city: '',
  postal_code: '',
  country: '',
}

/** The card issue flow's confirm-once scope (ui/confirm-once.ts). */
const CARD_ISSUE_SCOPE = 'cards.issue'

export interface NewCardChoices {
  wallet: string
  preselectedAccount: string | undefined
  programs: CardProgram[]
  allPrograms: CardProgram[]
  accounts: FiatAccount[]
}

/**
 * The new card's form state across its steps: the step shown, each choice,
 * the program and form factor they come to, and the confirmation that issues
 * the card.
 */
export function useNewCardForm(props: NewCardChoices) {
  const [, navigate] = useLocation()
  const issue = useIssueCard()
  const haptic = useHaptics()
  // In Telegram, closing the Mini App while the card is being issued asks first.
  useClosingConfirmation(issue.isPending)
  const standAlonePrograms = props.programs.filter((p) => p.sub_account_type === 'prepaid')
  const preselected = props.accounts.find((item) => item.id === props.preselectedAccount)
  const [step, setStepState] = useState<Step>('choose')
  // Set by the person's own move to another step, and only by it: the step
  // then opens at its heading. Derived from anything else (the error, say),
  // it would flip while they type and pull the focus out of the field.
  const [focusHeading, setFocusHeading] = useState(false)
  const setStep = (next: Step) => {
    setFocusHeading(true)
    setStepState(next)
  }
  const [funding, setFunding] = useState<Funding>(
    preselected || (standAlonePrograms.length === 0 && props.accounts.length > 0)
      ? 'account'
      : 'stand-alone',
  )
  const [programId, setProgramId] = useState(standAlonePrograms[0]?.id ?? '')
  const [accountId, setAccountId] = useState(preselected?.id ?? props.accounts[0]?.id ?? '')
  const [formFactor, setFormFactor] = useState<CardFormFactor>('VIRTUAL')
  const [nickName, setNickName] = useState('')
  const [address, setAddress] = useState<DeliveryAddress>(EMPTY_ADDRESS)
  const account = props.accounts.find((item) => item.id === accountId)
  const program =
    funding === 'stand-alone'
      ? standAlonePrograms.find((item) => item.id === programId)
      : props.allPrograms.find((item) => item.id === account?.program_id)
  const formFactors = program?.form_factors ?? []
  const chosenFactor = formFactors.includes(formFactor) ? formFactor : formFactors[0]
  const physical = chosenFactor === 'PHYSICAL'

  // What would be issued, without its key: the choice the key belongs to.
  const nick = nickName.trim() || undefined
  const common = {
    form_factor: chosenFactor,
    ...(nick && { nick_name: nick }),
    ...(physical && { delivery_address: cleanAddress(address) }),
  }
  const choice =
    funding === 'stand-alone'
      ? { kind: 'stand-alone', wallet_uuid: props.wallet, program_id: programId, ...common }
      : { kind: 'account', fiat_account_id: accountId, ...common }
  // One request_id per set of choices, latched while it is on its way and
  // kept in the tab across a reload until an answer settles it: the same
  // choices confirmed again after a lost answer send the same key, and the
  // server answers the card it issued instead of issuing (and charging) twice.
  const once = useConfirmOnce<typeof choice>(
    CARD_ISSUE_SCOPE,
    program && chosenFactor ? JSON.stringify(choice) : undefined,
  )

  /** A change of choice is another request: the last one's error goes. */
  const changed = <T>(set: (value: T) => void) => {
    return (value: T) => {
      set(value)
      issue.reset()
    }
  }

  const confirm = () => {
    if (!program || !chosenFactor || !once.start(choice)) return
    const keyed = { ...common, form_factor: chosenFactor, request_id: once.requestId }
    issue.mutate(
      funding === 'stand-alone'
        ? {
            kind: 'stand-alone',
            body: { wallet_uuid: props.wallet, program_id: programId, ...keyed },
          }
        : { kind: 'account', body: { fiat_account_id: accountId, ...keyed } },
      {
        onSuccess: (card) => {
          haptic('success')
          // The flow ends on the new card offering to fund it: a new account holds nothing yet.
          navigate(href.card(card.id, { issued: '1' }))
        },
        onError: (error) => {
          haptic('error')
          // The server found fault with the address: back to it, the fields
          // marked; the first of them gets the focus, not the heading.
          if (physical && serverAddressFaults(error).length > 0) {
            setFocusHeading(false)
            setStepState('address')
          }
        },
        onSettled: (_card, error) => once.finish(error),
      },
    )
  }

  return {
    step,
    setStep,
    focusHeading,
    issue,
    standAlonePrograms,
    funding,
    setFunding,
    programId,
    setProgramId,
    accountId,
    setAccountId,
    setFormFactor,
    nickName,
    setNickName,
    address,
    setAddress,
    account,
    program,
    formFactors,
    chosenFactor,
    physical,
    changed,
    confirm,
  }
}
