import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { Tabs } from './tabs.tsx'

const TABS = [
  { id: 'a', label: 'Alpha', panelLabel: 'Alpha panel' },
  { id: 'b', label: 'Beta', panelLabel: 'Beta panel' },
  { id: 'c', label: 'Gamma', panelLabel: 'Gamma panel' },
] as const

function Harness() {
  const [selected, setSelected] = useState<'a' | 'b' | 'c'>('a')
  return (
    <Tabs label="Letters" tabs={TABS} selected={selected} onSelect={setSelected}>
      <p>Content of {selected}</p>
    </Tabs>
  )
}

describe('Tabs', () => {
  it('is a labelled tablist with only the selected tab in the Tab order', () => {
    render(<Harness />)
    expect(screen.getByRole('tablist', { name: 'Letters' })).toBeInTheDocument()
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((tab) => tab.getAttribute('tabindex'))).toEqual(['0', '-1', '-1'])
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true')
    const panel = screen.getByRole('tabpanel', { name: 'Alpha panel' })
    expect(tabs[0]).toHaveAttribute('aria-controls', panel.id)
    expect(panel).toHaveTextContent('Content of a')
  })

  it('moves and selects with the arrow keys, wrapping, and jumps with Home and End', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await user.tab()
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus()

    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveFocus()
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel', { name: 'Beta panel' })).toHaveTextContent('Content of b')

    await user.keyboard('{ArrowRight}{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus()

    await user.keyboard('{ArrowLeft}')
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus()

    await user.keyboard('{Home}')
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{End}')
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus()
    expect(screen.getAllByRole('tab').map((tab) => tab.getAttribute('tabindex'))).toEqual([
      '-1',
      '-1',
      '0',
    ])
  })

  it('selects on click', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await user.click(screen.getByRole('tab', { name: 'Beta' }))
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Content of b')
  })
})
