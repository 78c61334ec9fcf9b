import { callSpecs, isCallName } from '../../shared/contract';
import { isAppError } from '../../shared/errors';
import { fail, ok, toErrorData, type Result } from '../../shared/result';
import { validationError } from '../../shared/validation';
import type { Logger } from '../logging';
import type { CallContext, CallHandlers } from './call-handlers';

/** Validates and dispatches contract calls; both transports go through it. */
export interface ContractRouter {
  dispatch(channel: string, payload: unknown, context: CallContext): Promise<Result<unknown>>;
}

/**
 * Builds the router: unknown channel → `unknown_call`; a request that fails its schema →
 * `invalid_request` naming the field; an AppError → its code; anything else thrown → `unexpected`
 * with a safe message, its stack logged. Responses are checked against their schema too, so a
 * handler can never leak a field the contract does not declare.
 */
export function createContractRouter(handlers: CallHandlers, logger: Logger): ContractRouter {
  return {
    async dispatch(channel, payload, context) {
      if (!isCallName(channel)) {
        return fail({
          code: 'unknown_call',
          message: `"${channel}" is not a Vigil call. Update the client: it does not match this core's contract.`,
          details: { channel },
        });
      }
      const spec = callSpecs[channel];
      const parsed = spec.request.safeParse(payload ?? {});
      if (!parsed.success) return fail(validationError(`Invalid request for ${channel}`, parsed.error).toData());
      try {
        // The request was parsed with this channel's own schema, so it fits this channel's handler.
        const handler = handlers[channel] as (request: unknown, context: CallContext) => Promise<unknown>;
        const value = await handler(parsed.data, context);
        const checked = spec.response.safeParse(value);
        if (!checked.success) {
          logger.error('A handler returned a response that breaks the contract', {
            channel,
            issues: checked.error.issues,
          });
          return fail(toErrorData(checked.error));
        }
        return ok(checked.data);
      } catch (error) {
        if (!isAppError(error)) logger.error('Unexpected error in a call handler', { channel, error });
        return fail(toErrorData(error));
      }
    },
  };
}
