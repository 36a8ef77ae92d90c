/** Validates an answer against docs/schemas/query-response.schema.json (the documented `query --json` and `POST /query` shape). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { expect } from 'vitest'
import { PROJECT_ROOT } from './shared.js'

const schema = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'docs', 'schemas', 'query-response.schema.json'), 'utf8'),
) as Record<string, unknown>
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
  schema,
)

/** Fails the test with ajv's errors when `value` does not follow the schema. */
export function expectQueryResponse(value: unknown): void {
  const ok = validate(value)
  expect(ok ? [] : validate.errors, 'query response schema').toEqual([])
}
