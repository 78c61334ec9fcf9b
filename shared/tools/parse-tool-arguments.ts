import type { z } from 'zod';
import { AppError } from '../errors';
import { issuePath } from '../validation';
import { closestName } from './closest-name';
import {
  isToolName,
  toolDefinition,
  toolNames,
  type AnyToolDefinition,
  type ToolInput,
  type ToolName,
} from './tool-registry';

/** The JSON type of a value, as an agent would name it. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number')
    return Number.isInteger(value) ? `the number ${value}` : `the number ${value} (not a whole number)`;
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** The value at a path inside the raw arguments, and whether the key is there at all. */
function lookup(raw: unknown, path: readonly PropertyKey[]): { readonly isPresent: boolean; readonly value: unknown } {
  let current: unknown = raw;
  for (const key of path) {
    if (
      typeof current !== 'object' ||
      current === null ||
      !Object.hasOwn(current, key) ||
      (current as Record<PropertyKey, unknown>)[key] === undefined
    ) {
      return { isPresent: false, value: undefined };
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { isPresent: true, value: current };
}

/** The fields of a tool, required ones first, as `path, content`. */
function fieldList(definition: AnyToolDefinition): { readonly required: string[]; readonly optional: string[] } {
  const required: string[] = [];
  const optional: string[] = [];
  for (const [name, field] of Object.entries(definition.input.shape as Record<string, z.ZodType>)) {
    (field.safeParse(undefined).success ? optional : required).push(name);
  }
  return { required, optional };
}

/** The problem one schema issue describes, in words that name the field and what was received. */
function describeIssue(
  definition: AnyToolDefinition,
  raw: unknown,
  issue: z.core.$ZodIssue,
): { field: string; problem: string; isMissing: boolean } {
  const field = issuePath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const { required, optional } = fieldList(definition);
    const names = issue.keys.map((key) => {
      const suggestion = closestName(key, [...required, ...optional]);
      return suggestion === undefined ? `"${key}"` : `"${key}" (did you mean "${suggestion}"?)`;
    });
    return {
      field: issue.keys[0] ?? field,
      problem: `${names.join(', ')} ${issue.keys.length === 1 ? 'is not a field' : 'are not fields'} of ${definition.name}`,
      isMissing: false,
    };
  }
  const { isPresent, value } = lookup(raw, issue.path);
  if (!isPresent) {
    return { field, problem: `the required field "${field}" is missing`, isMissing: true };
  }
  if (issue.code === 'invalid_type') {
    const expected =
      issue.expected === 'int'
        ? 'a whole number'
        : `${/^[aeiou]/u.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    return {
      field,
      problem: `the field "${field}" must be ${expected}, but got ${jsonTypeName(value)}`,
      isMissing: false,
    };
  }
  return { field, problem: `the field "${field}" ${issue.message}`, isMissing: false };
}

/** What to do about a missing field; for text that may be empty, a warning not to resend it empty. */
function droppedHint(definition: AnyToolDefinition, field: string): string {
  const schema = (definition.input.shape as Record<string, z.ZodType | undefined>)[field];
  if (schema?.safeParse('').success !== true) return '';
  return ` A long "${field}" is sometimes dropped from a call: resend it in full. Only an intentionally empty value is sent as "${field}": "".`;
}

/**
 * Validates the raw arguments of a tool call against the tool's one schema. A missing required key
 * is never defaulted (seed 004): it is an `invalid_request` error that names the field, says the call
 * was not run and nothing was changed, and asks for the whole call again. A wrong type names the type
 * received; an unknown field is named (with the likely intended one). An explicit "" is valid.
 */
export function parseToolArguments<N extends ToolName>(name: N, raw: unknown): ToolInput<N>;
export function parseToolArguments(name: string, raw: unknown): unknown;
export function parseToolArguments(name: string, raw: unknown): unknown {
  if (!isToolName(name)) {
    const suggestion = closestName(name, toolNames);
    throw new AppError(
      'unknown_call',
      `There is no tool "${name}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; the call was not run. The tools are: ${toolNames.join(', ')}.`,
      { tool: name, tools: toolNames },
    );
  }
  const definition: AnyToolDefinition = toolDefinition(name);
  const { required } = fieldList(definition);
  const notRun = `${definition.name} was not run`;
  const again = `${definition.notRunEffect} Send the whole call again with every required field (${required.join(', ')}).`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AppError(
      'invalid_request',
      `${notRun}: its arguments must be a JSON object, but got ${jsonTypeName(raw)}. ${again}`,
      {
        tool: definition.name,
        field: '(root)',
        missing: [],
      },
    );
  }
  const parsed = definition.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => describeIssue(definition, raw, issue));
  const missing = problems.filter((problem) => problem.isMissing).map((problem) => problem.field);
  const first = problems[0] ?? { field: '(root)', problem: 'the arguments are invalid', isMissing: false };
  const text = problems.map((problem) => problem.problem).join('; ');
  const dropped = missing.map((field) => droppedHint(definition, field)).join('');
  throw new AppError('invalid_request', `${notRun}: ${text}. ${again}${dropped}`, {
    tool: definition.name,
    field: first.field,
    missing,
    issues: problems.map(({ field, problem }) => ({ field, message: problem })),
  });
}
