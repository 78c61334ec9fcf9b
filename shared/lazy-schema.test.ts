import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildPendingSchemas, lazySchema } from './lazy-schema';

const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return z.object({ name: z.string() });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(schema.safeParse({ name: 1 }).success).toBe(false);
    expect(Object.keys(schema.shape)).toEqual(['name']);
    expect(builds).toBe(1);
  });

  it('parses, fails and nests exactly as the schema it stands for', () => {
    const eager = z.object({ id: z.string().min(1), count: z.number().int().default(3) }).strict();
    const lazy = lazySchema(() => z.object({ id: z.string().min(1), count: z.number().int().default(3) }).strict());
    const outer = z.object({ inner: lazy.optional(), list: z.array(lazy) });
    for (const value of [{ id: 'x' }, { id: '' }, { id: 'x', extra: 1 }, { id: 'x', count: 1.5 }, null]) {
      expect(lazy.safeParse(value)).toEqual(eager.safeParse(value));
      expect(outer.safeParse({ list: [value] })).toEqual(
        z.object({ list: z.array(eager) }).safeParse({ list: [value] }),
      );
    }
    expect(lazy instanceof z.ZodObject).toBe(true);
    expect(lazy.extend({ more: z.boolean() }).parse({ id: 'x', more: true })).toEqual({
      id: 'x',
      count: 3,
      more: true,
    });
  });

  it('keeps descriptions in the JSON Schema of a bigger schema that nests it', () => {
    const field = lazySchema(() => z.string().describe('The path to read.'));
    const eagerField = z.string().describe('The path to read.');
    expect(z.toJSONSchema(z.object({ path: field }))).toEqual(z.toJSONSchema(z.object({ path: eagerField })));
    expect(z.toJSONSchema(field)).toEqual(z.toJSONSchema(eagerField));
    expect(field.description).toBe('The path to read.');
  });

  it('answers property descriptors and keys as the schema does', () => {
    const lazy = lazySchema(() => z.enum(['a', 'b']));
    expect(lazy.options).toEqual(['a', 'b']);
    expect(Object.getOwnPropertyDescriptor(lazy, '_zod')?.value).toBeDefined();
    expect(Reflect.ownKeys(lazy)).toContain('_zod');
    expect('parse' in lazy).toBe(true);
  });

  it('are all built ahead of use by buildPendingSchemas, each once, a failing one left to its first use', async () => {
    await buildPendingSchemas(nextTurn);
    const built: string[] = [];
    const first = lazySchema(() => {
      built.push('first');
      return z.string();
    });
    const failing = lazySchema((): z.ZodString => {
      built.push('failing');
      throw new Error('no such schema');
    });
    const second = lazySchema(() => {
      built.push('second');
      return z.number();
    });
    expect(second.parse(2)).toBe(2);
    expect(await buildPendingSchemas(nextTurn, 1)).toBe(2);
    expect(built).toEqual(['second', 'first', 'failing']);
    expect(first.parse('a')).toBe('a');
    expect(() => failing.parse('a')).toThrow('no such schema');
    expect(built).toEqual(['second', 'first', 'failing', 'failing']);
    expect(await buildPendingSchemas(nextTurn)).toBe(0);
  });
});
