/**
 * The rows of what an order costs each party in CPU (process-cpu.ts measures
 * it) and what that puts in reach on this machine's cores: orders.ts's info
 * rows beside issue 29's ratios.
 */
import { availableParallelism } from 'node:os'
import { median, type Row, skippedRow, valueRow } from './lib.ts'
import type { CpuMs } from './process-cpu.ts'

/** Each party's CPU divided by `count` (orders or transactions). */
export function per(cpu: CpuMs, count: number): CpuMs {
  return {
    postgres: cpu.postgres / count,
    pgbench: cpu.pgbench / count,
    server: cpu.server / count,
    client: cpu.client / count,
  }
}

/**
 * What the machine's cores put in reach. The database, the server and the
 * bench's clients share them, so orders ÷ TPC-B is at most cores ÷ (their CPU
 * an order, all told) ÷ TPC-B tps — the measured ratio follows it when the
 * load is bound by CPU — and at most cores ÷ PostgreSQL's CPU an order ÷ TPC-B
 * tps were the server and every client to cost nothing. Against both, the CPU
 * an order that the ratio's `step` leaves to all three.
 */
export function cpuRows(
  perOrder: CpuMs[],
  perTransaction: CpuMs[],
  tps: number[],
  step: number,
): Row[] {
  if (perOrder.length === 0) return [skippedRow('CPU an order', 'no /proc to read')]
  const cores = availableParallelism()
  const all = (cpu: CpuMs) => cpu.postgres + cpu.server + cpu.client
  const ms = (values: number[]) => `${median(values).toFixed(2)} ms`
  const ratio = (cpuMs: number, i: number) => (cores * 1000) / cpuMs / tps[i]!
  return [
    valueRow(
      'CPU a TPC-B transaction: PostgreSQL / pgbench (their processes, /proc)',
      perTransaction.map((cpu) => cpu.postgres),
      `ms / ${ms(perTransaction.map((cpu) => cpu.pgbench))}`,
      { digits: 2, goal: 'info' },
    ),
    valueRow(
      'CPU an order: PostgreSQL / server / bench client (/proc)',
      perOrder.map((cpu) => cpu.postgres),
      `ms / ${ms(perOrder.map((cpu) => cpu.server))} / ${ms(perOrder.map((cpu) => cpu.client))}`,
      { digits: 2, goal: 'info' },
    ),
    valueRow(
      `CPU an order, all three, that the step of ${step} allows (${cores} cores ÷ ${step} TPC-B tps)`,
      tps.map((value) => (cores * 1000) / (step * value)),
      'ms',
      { digits: 2, goal: 'info' },
    ),
    valueRow(
      `orders ÷ TPC-B the cores allow (${cores} cores ÷ all three's CPU an order ÷ TPC-B tps)`,
      perOrder.map((cpu, i) => ratio(all(cpu), i)),
      '',
      { digits: 2, goal: 'info' },
    ),
    valueRow(
      `ceiling of orders ÷ TPC-B, server and clients free (${cores} cores ÷ PostgreSQL CPU an order ÷ TPC-B tps)`,
      perOrder.map((cpu, i) => ratio(cpu.postgres, i)),
      '',
      { digits: 2, goal: 'info' },
    ),
  ]
}

/**
 * The embedded server's CPU an order, PGlite's work included (it runs in the
 * server's thread). At the open loop's 100 orders a second, a tenth of it in
 * ms is the share of the core they take; a queue's wait grows steeply with
 * that share, and the embedded p99 row is mostly such waits.
 */
export function embeddedCpuRows(perOrder: CpuMs[]): Row[] {
  if (perOrder.length === 0) return []
  return [
    valueRow(
      'CPU an order, PGlite as npm start: server with its database / bench client (/proc)',
      perOrder.map((cpu) => cpu.server),
      `ms / ${median(perOrder.map((cpu) => cpu.client)).toFixed(2)} ms`,
      { digits: 2, goal: 'info' },
    ),
  ]
}
