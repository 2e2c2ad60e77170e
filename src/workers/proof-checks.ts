/**
 * The checks of a proof of balances as the screen lists them, each made of
 * some of the verifier's reasons (proof-verify.ts). Apart, so the screen
 * names them without loading the verifier, which only the worker runs.
 */
export const CHECKS = ['place', 'sums', 'signature', 'balances'] as const
export type Check = (typeof CHECKS)[number]
export type CheckStatus = 'passed' | 'failed' | 'skipped'
