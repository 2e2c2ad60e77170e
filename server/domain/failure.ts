/**
 * What a use case throws when it refuses: one failure of its area's union
 * (`{ kind, …details }`, in the area's errors.ts). The area's routes.ts maps
 * each kind to its HTTP answer in one switch that ends in `assertNever`
 * (infra/problem.ts), so a new kind without an answer does not compile.
 */
export class DomainError<F extends { kind: string }> extends Error {
  constructor(readonly failure: F) {
    super(failure.kind)
    this.name = new.target.name
  }
}
