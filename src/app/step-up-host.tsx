import { lazy, Suspense, useEffect, useState } from 'react'
import type { StepUpMethod } from '../../contract/security.ts'
import { withMessages } from '../i18n/i18n.tsx'
import { setStepUpHandler } from '../net/step-up.ts'

/** Loaded with its words the first time a call needs a proof, over whatever screen made it. */
const StepUpDialog = lazy(() =>
  withMessages(import('../features/security/step-up-dialog.tsx'), 'security', 'auth').then(
    (module) => ({
      default: module.StepUpDialog,
    }),
  ),
)

interface Asking {
  methods: StepUpMethod[]
  settle: (proven: boolean) => void
}

/**
 * Answers the API client's "confirm it is you" (src/net/step-up.ts) with the
 * step-up dialog, over whatever screen made the sensitive call. One question
 * at a time: a call that needs a proof while the dialog is open (the dialog's
 * own, say) is not asked about again, and fails as the server answered.
 */
export function StepUpHost() {
  const [asking, setAsking] = useState<Asking | undefined>()

  useEffect(() => {
    let open = false
    return setStepUpHandler(
      (methods) =>
        new Promise<boolean>((resolve) => {
          if (open) return resolve(false)
          open = true
          setAsking({
            methods,
            settle: (proven) => {
              open = false
              setAsking(undefined)
              resolve(proven)
            },
          })
        }),
    )
  }, [])

  if (!asking) return null
  return (
    <Suspense fallback={null}>
      <StepUpDialog methods={asking.methods} onDone={asking.settle} />
    </Suspense>
  )
}
