import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { render } from '@testing-library/react'
import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import type { IconProps } from './icons.tsx'
import * as shellIcons from './icons.tsx'
import * as screenIcons from './screen-icons.tsx'

/** The icons that point a way along the line of reading: right to left, they point the other way. */
const DIRECTIONAL = new Set(['ChevronLeftIcon', 'ChevronRightIcon', 'SignOutIcon'])

const icons = Object.entries({ ...shellIcons, ...screenIcons })
  .filter(([name]) => name.endsWith('Icon') && name !== 'Icon')
  .map(([name, drawn]) => [name, drawn as ComponentType<IconProps>] as const)

describe('right to left (issue 34)', () => {
  it.each(icons)('%s is mirrored only if it points along the line', (name, Drawn) => {
    const { container } = render(<Drawn />)
    const classes = container.querySelector('svg')!.classList
    expect(classes.contains('icon')).toBe(true)
    expect(classes.contains('icon-mirror'), name).toBe(DIRECTIONAL.has(name))
  })

  it('knows every directional icon by name, and the stylesheet turns them round', () => {
    expect(icons.map(([name]) => name)).toEqual(expect.arrayContaining([...DIRECTIONAL]))
    const css = readFileSync(resolve('src/ui/ui.css'), 'utf8')
    expect(css).toMatch(/\[dir="rtl"\] \.icon-mirror \{\s*transform: scaleX\(-1\);/)
  })

  it('no stylesheet places anything by left or right: logical properties follow the direction', () => {
    const sheets = readdirSync(resolve('src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.css'))
      .map((file) => join('src', file))
    const physical =
      /(^|[\s{;])(left|right|margin-(left|right)|padding-(left|right)|border-(left|right)[\w-]*|border-(top|bottom)-(left|right)-radius)\s*:|(text-align|float|clear)\s*:\s*(left|right)\b|translateX\(/
    const found = sheets.flatMap((file) =>
      readFileSync(file, 'utf8')
        // Comments blanked, their lines kept: words about left and right place nothing.
        .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
        .split('\n')
        .map((line, index) => ({ where: `${file}:${index + 1}`, line: line.trim() }))
        .filter(({ line }) => physical.test(line)),
    )
    expect(sheets.length).toBeGreaterThan(10)
    expect(found).toEqual([])
  })
})
