/** The CLI's face: what other folders (the hook-walk bench) use of it. Commands are reached through `cli-main.ts`. */
export { shrinkHookEvent } from './hook/shrink-hook-event';
