import { screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { ProblemCode } from '../../contract/problem-codes.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import { ApiError } from '../net/api.ts'
import { isMissing, LoadError } from './load-error.tsx'

const problem = (status: number, code: ProblemCode, fields: string[] = []) =>
  new ApiError(status, {
    type: 'x',
    title: 't',
    status,
    code,
    ...(fields.length > 0 && { errors: fields.map((field) => ({ field, message: 'm' })) }),
  })

describe('a resource that is not there', () => {
  it.each([
    [problem(404, 'ORDER_NOT_FOUND'), true],
    [problem(422, 'VALIDATION_FAILED', ['/params/id']), true],
    [problem(422, 'VALIDATION_FAILED', ['/params/id', '/query/limit']), false],
    [problem(422, 'VALIDATION_FAILED'), false],
    [problem(500, 'INTERNAL'), false],
    [new TypeError('Failed to fetch'), false],
  ])('%s is missing: %s', (error, missing) => {
    expect(isMissing(error)).toBe(missing)
  })

  it('says it does not exist, with the way back, never a validation message', () => {
    renderApp(
      <LoadError
        error={problem(422, 'VALIDATION_FAILED', ['/params/id'])}
        what="order"
        back={{ href: '/orders', label: 'Orders' }}
        onRetry={vi.fn()}
      />,
    )
    expect(
      screen.getByRole('heading', { level: 1, name: 'This order doesn’t exist' }),
    ).toBeVisible()
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/orders')
    expect(screen.queryByText('Some fields need another look.')).toBeNull()
  })

  it('keeps a lost connection in its own words, with a retry', () => {
    const retry = vi.fn()
    renderApp(
      <LoadError
        error={new TypeError('Failed to fetch')}
        what="card"
        back={{ href: '/cards', label: 'All cards' }}
        onRetry={retry}
      />,
      { language: 'ru' },
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Нет связи с сервером')
    screen.getByRole('button', { name: 'Повторить' }).click()
    expect(retry).toHaveBeenCalledOnce()
  })
})
