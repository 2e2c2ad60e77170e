import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchema, FastifySchemaCompiler } from 'fastify'

/**
 * # How requests are checked against their schema
 *
 * Bodies are JSON: they arrive typed, so they are never coerced — `42` is not
 * a name, `["vault"]` is not a wallet type, `"true"` does not accept terms,
 * and `""` is not null. A wrong type is 422 naming the field.
 *
 * Query strings and path parameters arrive as text, so a value converts only
 * where its schema asks for a number or a boolean, and only from its plain
 * spelling: decimal digits (`10`, `-3`, `2.5` for a number) and `true` /
 * `false`. `1e309`, `0x10`, ` 10`, `+1`, `-0` and `Infinity` stay text and fail
 * the type, so nothing but a finite number within the schema's bounds reaches
 * a query. A parameter that may repeat (an array) takes a single value as a
 * list of one.
 *
 * Both validators list every fault (allErrors), fill defaults, keep unknown
 * body fields (an `additionalProperties: false` schema refuses them), and
 * take no NaN or Infinity for a number (`1e309` in a JSON body parses as
 * Infinity).
 */

// strictNumbers: NaN and ±Infinity (JSON.parse reads 1e309 as Infinity) are not numbers.
const options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strictNumbers: true,
} as const

function ajv() {
  const instance = new Ajv({ ...options, coerceTypes: false })
  addFormats(instance)
  return instance
}

type Schema = Record<string, unknown>

const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/

/** The JSON types a schema admits: its `type`, or its alternatives' (TypeBox unions). */
function typesOf(schema: Schema | undefined): Set<string> {
  const types = new Set<string>()
  if (!schema) return types
  const own = schema.type
  if (typeof own === 'string') types.add(own)
  if (Array.isArray(own)) for (const type of own) types.add(String(type))
  if (typeof schema.const === 'string' || Array.isArray(schema.enum)) types.add('string')
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alternatives = schema[key]
    if (Array.isArray(alternatives)) {
      for (const alternative of alternatives) for (const t of typesOf(alternative)) types.add(t)
    }
  }
  return types
}

/** One text value as its schema's type asks, when it is spelled plainly; else untouched. */
export function convertText(value: string, schema: Schema | undefined): unknown {
  const types = typesOf(schema)
  if (types.has('string')) return value
  if (types.has('integer') && INTEGER_TEXT.test(value)) return toFinite(value)
  if (types.has('number') && NUMBER_TEXT.test(value)) return toFinite(value)
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

/**
 * Too many digits for a double stays text, and so does `-0` (JSON has no
 * negative zero): either then fails the type, never reaching a query.
 */
function toFinite(value: string): unknown {
  const number = Number(value)
  return Number.isFinite(number) && !Object.is(number, -0) ? number : value
}

/** The properties of an object schema, by name (TypeBox Composite is one flat object). */
function propertiesOf(schema: Schema): Record<string, Schema> {
  return (schema.properties as Record<string, Schema> | undefined) ?? {}
}

/**
 * A querystring or params object with its text values converted in place per
 * their property schemas. Unknown keys are left for the schema to judge.
 */
export function convertParameters(data: unknown, schema: Schema): unknown {
  if (data === null || typeof data !== 'object') return data
  const properties = propertiesOf(schema)
  const record = data as Record<string, unknown>
  for (const [name, value] of Object.entries(record)) {
    const property = properties[name]
    if (!property) continue
    if (typesOf(property).has('array')) {
      const items = property.items as Schema | undefined
      const list = Array.isArray(value) ? value : [value]
      record[name] = list.map((item) =>
        typeof item === 'string' ? convertText(item, items) : item,
      )
    } else if (typeof value === 'string') {
      record[name] = convertText(value, property)
    }
  }
  return data
}

type Validator = (data: unknown) => { value: unknown } | { error: ErrorObject[] }

function wrap(check: ValidateFunction, prepare?: (data: unknown) => unknown): Validator {
  return (data) => {
    const value = prepare ? prepare(data) : data
    if (check(value)) return { value }
    return { error: check.errors ?? [] }
  }
}

/**
 * The app's validator compiler: one Ajv for bodies, one for text parts (both
 * without Ajv's own coercion, which turns `[x]` into `x`, `""` into null and
 * `1e309` into Infinity). Schemas registered with `addSchema` are not used
 * (the contract inlines every schema). Each route's code is generated at its
 * first call, not at start-up (infra/lazy-schemas.ts says why).
 */
export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  let body: Ajv | undefined
  let text: Ajv | undefined
  const compile = (schema: Schema, httpPart: string | undefined): Validator => {
    if (httpPart === 'body') {
      body ??= ajv()
      return wrap(body.compile(schema))
    }
    text ??= ajv()
    const check = text.compile(schema)
    if (httpPart === 'querystring' || httpPart === 'params') {
      return wrap(check, (data) => convertParameters(data, schema))
    }
    return wrap(check)
  }
  return ({ schema, httpPart }) => {
    let validate: Validator | undefined
    return (data) => {
      validate ??= compile(schema as Schema, httpPart)
      return validate(data)
    }
  }
}
