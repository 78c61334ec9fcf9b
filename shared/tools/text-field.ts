import { z } from 'zod';
import { findLoneSurrogate } from './lone-surrogate';

/**
 * A text argument that must be well-formed Unicode: a lone surrogate has no UTF-8 form, and writing
 * it would silently turn it into U+FFFD. The empty string is a legitimate value.
 */
export function textField(description: string): z.ZodString {
  return z
    .string()
    .check(
      z.refine((text) => findLoneSurrogate(text) === -1, {
        message: 'contains a lone UTF-16 surrogate (broken text that has no UTF-8 form)',
      }),
    )
    .describe(description);
}

/** A path argument: non-empty text. */
export function pathField(description: string): z.ZodString {
  return z.string().min(1, { message: 'is empty; give the path of a file' }).describe(description);
}
