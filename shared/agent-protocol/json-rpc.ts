import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { errorCodes, type AppErrorData, type ErrorCode } from '../errors';

/**
 * JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as Vigil's agent protocol carries it over
 * WebSocket: one message per text frame; requests carry an id, notifications do not.
 */

/** The largest frame either side of the agent protocol accepts, in bytes. */
export const maxAgentFrameBytes = 8 * 1024 * 1024;

/** JSON-RPC error codes: the five of the specification, and one for Vigil's own errors. */
export const jsonRpcErrorCodes = {
  /** The frame is not JSON. */
  parseError: -32700,
  /** The frame is JSON but not a JSON-RPC 2.0 request (`error.data.field` names what is wrong). */
  invalidRequest: -32600,
  /** No such method. */
  methodNotFound: -32601,
  /** The params failed the method's schema (`error.data.field` names the field). */
  invalidParams: -32602,
  /** A bug in Vigil; the details are in its log. */
  internalError: -32603,
  /** A Vigil error: `error.data.code` is one of shared/errors.ts's codes. */
  applicationError: -32000,
} as const;

/** A request or response id. */
export const jsonRpcIdSchema = lazySchema(() => z.union([z.string().max(200), z.number().int()]));

/** A request or notification from either side. */
export const jsonRpcRequestSchema = lazySchema(() =>
  z.object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcIdSchema.optional(),
    method: z.string().min(1).max(200),
    params: z.unknown().optional(),
  }),
);

/** What `error.data` carries: Vigil's error code, the field that failed, the details. */
export const jsonRpcErrorDataSchema = lazySchema(() =>
  z.object({
    code: z.enum(errorCodes),
    field: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** A JSON-RPC error object. */
export const jsonRpcErrorSchema = lazySchema(() =>
  z.object({
    code: z.number().int(),
    message: z.string(),
    data: jsonRpcErrorDataSchema.optional(),
  }),
);

/** A response: a result, or an error (id null when the request's id could not be read). */
export const jsonRpcResponseSchema = lazySchema(() =>
  z.union([
    z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, result: z.unknown() }),
    z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema.nullable(), error: jsonRpcErrorSchema }),
  ]),
);

/** A request or notification. */
export type JsonRpcRequest = z.infer<typeof jsonRpcRequestSchema>;
/** A request id. */
export type JsonRpcId = z.infer<typeof jsonRpcIdSchema>;
/** A JSON-RPC error object. */
export type JsonRpcError = z.infer<typeof jsonRpcErrorSchema>;
/** A response. */
export type JsonRpcResponse = z.infer<typeof jsonRpcResponseSchema>;

/** The JSON-RPC error for a Vigil error: validation failures are invalid params, the rest application errors. */
export function toJsonRpcError(error: AppErrorData, jsonRpcCode?: number): JsonRpcError {
  const field = error.details?.['field'];
  const data: z.infer<typeof jsonRpcErrorDataSchema> = {
    code: error.code,
    ...(typeof field === 'string' ? { field } : {}),
    // The wire shape of JSON-RPC error data: no `details` key without details.
    ...(error.details === undefined ? {} : { details: error.details }),
  };
  const code =
    jsonRpcCode ??
    (error.code === 'invalid_request'
      ? jsonRpcErrorCodes.invalidParams
      : error.code === 'unknown_call'
        ? jsonRpcErrorCodes.methodNotFound
        : error.code === 'unexpected'
          ? jsonRpcErrorCodes.internalError
          : jsonRpcErrorCodes.applicationError);
  return { code, message: error.message, data };
}

/** Vigil's error data back from a JSON-RPC error (the code falls back to the JSON-RPC code's meaning). */
export function fromJsonRpcError(error: JsonRpcError): AppErrorData {
  const fallback: ErrorCode =
    error.code === jsonRpcErrorCodes.internalError
      ? 'unexpected'
      : error.code === jsonRpcErrorCodes.methodNotFound
        ? 'unknown_call'
        : error.code === jsonRpcErrorCodes.applicationError
          ? 'unexpected'
          : 'invalid_request';
  const code = error.data?.code ?? fallback;
  const details = error.data?.details;
  return details === undefined ? { code, message: error.message } : { code, message: error.message, details };
}
