import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

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
});
