import { act, configure, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '../../tests/support/render-app.tsx'
import { fakeMiniApp } from '../telegram/fake-mini-app.ts'
import { MiniAppProvider } from '../telegram/mini-app.tsx'
import type { MiniAppControls } from '../telegram/sdk.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'

const TITLE = 'Close this card?'
const MESSAGE = 'A closed card cannot pay.\nIts balance goes back to your wallet.'

/** A page asking before a destructive action; the action settles when the test says. */
function ClosePage(props: {
  title?: string
  message?: string
  fields?: boolean
  asking?: boolean
}) {
  const [asking, setAsking] = useState(props.asking ?? false)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  const [closed, setClosed] = useState(false)
  const confirm = async () => {
    setBusy(true)
    setFailed(false)
    try {
      await action.run()
      setAsking(false)
      setClosed(true)
    } catch {
      setFailed(true)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" onClick={() => setAsking(true)}>
        Close card…
      </button>
      {closed && <p>Card closed.</p>}
      <ConfirmDialog
        open={asking}
        title={props.title ?? TITLE}
        message={props.message}
        confirmLabel="Close card"
        busy={busy}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      >
        {props.fields && <input aria-label="Reason" />}
        {failed && <p role="alert">The card could not be closed.</p>}
      </ConfirmDialog>
    </>
  )
}

/** The action behind the confirm button: each run waits for `succeed` or `fail`. */
const action = {
  runs: 0,
  settle: undefined as { resolve: () => void; reject: (error: Error) => void } | undefined,
  run() {
    action.runs += 1
    return new Promise<void>((resolve, reject) => {
      action.settle = { resolve, reject }
    })
  },
  succeed: () => act(async () => action.settle?.resolve()),
  fail: () => act(async () => action.settle?.reject(new Error('502'))),
}

afterEach(() => {
  action.runs = 0
  action.settle = undefined
  vi.restoreAllMocks()
})

function renderInTelegram(page: React.ReactNode, controls: MiniAppControls) {
  return renderApp(<MiniAppProvider controls={controls}>{page}</MiniAppProvider>)
}

describe('ConfirmDialog in a browser', () => {
  it('asks with the <dialog>: the message a paragraph a line, Cancel focused', async () => {
    const { user } = renderApp(<ClosePage message={MESSAGE} />)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    const dialog = screen.getByRole('dialog', { name: TITLE })
    expect(within(dialog).getByText('A closed card cannot pay.').tagName).toBe('P')
    expect(within(dialog).getByText('Its balance goes back to your wallet.').tagName).toBe('P')
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Close card' }))
    expect(action.runs).toBe(1)
    expect(within(dialog).getByRole('button', { name: 'Close card' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled()
    await action.succeed()
    expect(screen.getByText('Card closed.')).toBeVisible()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})

describe('ConfirmDialog in Telegram', () => {
  it('asks with Telegram’s popup, then shows the action running in the dialog until it is done', async () => {
    const tg = fakeMiniApp()
    const { user } = renderInTelegram(<ClosePage message={MESSAGE} />, tg.controls)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    await waitFor(() => expect(tg.state.popups).toHaveLength(1))
    expect(tg.state.popups[0]).toEqual({
      title: TITLE,
      message: MESSAGE,
      buttons: [
        { id: 'confirm', type: 'destructive', text: 'Close card' },
        { id: 'cancel', type: 'cancel' },
      ],
    })
    // The popup has the question: no second one behind it.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

    await tg.answerPopup('confirm')
    expect(action.runs).toBe(1)
    const dialog = screen.getByRole('dialog', { name: TITLE })
    expect(within(dialog).getByRole('button', { name: 'Close card' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
    // Both buttons are disabled: the heading holds focus, and says the action is running.
    const heading = within(dialog).getByRole('heading', { name: TITLE })
    expect(heading).toHaveFocus()
    expect(heading).toHaveAccessibleDescription('Working on it…')
    expect(within(dialog).getByRole('status')).toHaveTextContent('Working on it…')
    await action.succeed()
    expect(screen.getByText('Card closed.')).toBeVisible()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(tg.state.popups).toHaveLength(1)
  })

  it('keeps a failure in the dialog, where the person can try again or cancel', async () => {
    const tg = fakeMiniApp()
    const { user } = renderInTelegram(<ClosePage message={MESSAGE} />, tg.controls)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    await waitFor(() => expect(tg.state.popups).toHaveLength(1))
    await tg.answerPopup('confirm')
    const dialog = screen.getByRole('dialog', { name: TITLE })
    expect(within(dialog).getByRole('heading', { name: TITLE })).toHaveFocus()
    await action.fail()
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The card could not be closed.')
    // The buttons are back, and focus with them, on the safe answer.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    expect(within(dialog).getByRole('status')).toBeEmptyDOMElement()
    expect(within(dialog).getByRole('heading', { name: TITLE })).not.toHaveAccessibleDescription()

    await user.click(within(dialog).getByRole('button', { name: 'Close card' }))
    expect(action.runs).toBe(2)
    await action.succeed()
    expect(screen.getByText('Card closed.')).toBeVisible()
    // Asking again is a new question: a new popup.
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    await waitFor(() => expect(tg.state.popups).toHaveLength(2))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it.each([
    ['Cancel', 'cancel'],
    ['closing the popup', null],
  ])('cancels on %s: nothing runs, no dialog', async (_, pressed) => {
    const tg = fakeMiniApp()
    const { user } = renderInTelegram(<ClosePage message={MESSAGE} />, tg.controls)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    await waitFor(() => expect(tg.state.popups).toHaveLength(1))
    await tg.answerPopup(pressed)
    expect(action.runs).toBe(0)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    // Closed: the next question asks again.
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    await waitFor(() => expect(tg.state.popups).toHaveLength(2))
  })

  it('leaves a title over Telegram’s 64 characters to the dialog, whole', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const title = `Close “${'x'.repeat(60)}”?`
    const tg = fakeMiniApp()
    const { user } = renderInTelegram(<ClosePage title={title} message={MESSAGE} />, tg.controls)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    const dialog = await screen.findByRole('dialog', { name: title })
    expect(tg.state.popups).toEqual([])
    expect(warn).toHaveBeenCalledOnce()
    await user.click(within(dialog).getByRole('button', { name: 'Close card' }))
    expect(action.runs).toBe(1)
  })

  it('leaves a question without a plain-text message (a body with fields) to the dialog', async () => {
    const tg = fakeMiniApp()
    const { user } = renderInTelegram(<ClosePage fields />, tg.controls)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    const dialog = screen.getByRole('dialog', { name: TITLE })
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toBeVisible()
    expect(tg.state.popups).toEqual([])
  })

  it('opens one popup for a question open from the start, under StrictMode', async () => {
    const tg = fakeMiniApp()
    configure({ reactStrictMode: true })
    try {
      renderInTelegram(<ClosePage message={MESSAGE} asking />, tg.controls)
    } finally {
      configure({ reactStrictMode: false })
    }
    await waitFor(() => expect(tg.state.popups).toHaveLength(1))
    await tg.answerPopup('confirm')
    expect(action.runs).toBe(1)
    await action.succeed()
    expect(tg.state.popups).toHaveLength(1)
  })

  it('ignores an answer that comes after the page is gone', async () => {
    const tg = fakeMiniApp()
    const { user, unmount } = renderInTelegram(<ClosePage message={MESSAGE} />, tg.controls)
    await user.click(screen.getByRole('button', { name: 'Close card…' }))
    await waitFor(() => expect(tg.state.popups).toHaveLength(1))
    unmount()
    await tg.answerPopup('confirm')
    expect(action.runs).toBe(0)
  })
})
