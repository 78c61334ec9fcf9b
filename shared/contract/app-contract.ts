import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineCalls, defineEvents } from './define';

/** What the UI learns about the core it is connected to. */
export const appInfoSchema = lazySchema(() =>
  z.object({
    name: z.literal('vigil'),
    version: z.string(),
    home: z.string(),
    platform: z.string(),
    pid: z.number().int(),
    startedAt: z.string(),
    /** How to run this Vigil's CLI by absolute path, and Hermes's active home: what `vigil connect` puts in its snippets. */
    connect: z.object({ command: z.string(), args: z.array(z.string()), hermesHome: z.string() }).optional(),
  }),
);

/** A problem the core could not report through a call result (a failed background job, …). */
export const problemSchema = lazySchema(() =>
  z.object({
    source: z.string(),
    message: z.string(),
    at: z.string(),
  }),
);

/** Calls about the running core itself. */
export const appCalls = defineCalls({
  'app:info': {
    summary: 'Version, data folder and process of the running core.',
    request: lazySchema(() => z.object({}).strict()),
    response: appInfoSchema,
  },
});

/** Events about the running core itself. */
export const appEvents = defineEvents({
  'app:problem-reported': {
    summary: 'A background part of the core hit a problem that no call result could carry.',
    payload: problemSchema,
  },
});
