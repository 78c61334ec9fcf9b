import type { StateCreator } from 'zustand';
import type { Toast } from '../model/toast';
import type { AppState } from './app-store';

/** How long a toast stays (while the pointer or focus is not on it). */
export const toastLifetimeMs = 8000;
/** At most this many toasts show; the oldest go first. */
const maxToasts = 4;

/** What a caller asks to show; the slice assigns the id and the lifetime. */
export interface ToastRequest {
  readonly tone: Toast['tone'];
  readonly title: string;
  readonly detail?: string;
  readonly action?: { readonly label: string; readonly testId: string; readonly run: () => void };
  /** While this holds, the toast (and its action) still applies; once it does not, the toast leaves at once. */
  readonly appliesWhile?: (state: AppState) => boolean;
}

/** Toasts: short news of what just happened, some with a follow-up ("Undo restore"). */
export interface ToastSlice {
  readonly toasts: readonly Toast[];
  readonly notify: (request: ToastRequest) => number;
  readonly runToastAction: (id: number) => void;
  readonly dismissToast: (id: number) => void;
  /** The pointer or the focus is on a toast (`isHeld`): its time stops until it leaves. */
  readonly holdToast: (id: number, isHeld: boolean) => void;
}

interface Lifetime {
  timer: ReturnType<typeof setTimeout> | undefined;
  remainingMs: number;
  startedAt: number;
}

/** The toast slice: every toast leaves after `toastLifetimeMs`, or at once when what it offers no longer applies. */
export const createToastSlice: StateCreator<AppState, [], [], ToastSlice> = (set, get, api) => {
  let nextId = 1;
  const actions = new Map<number, () => void>();
  const applies = new Map<number, (state: AppState) => boolean>();
  const lifetimes = new Map<number, Lifetime>();

  const dismiss = (id: number): void => {
    actions.delete(id);
    applies.delete(id);
    const lifetime = lifetimes.get(id);
    if (lifetime?.timer !== undefined) clearTimeout(lifetime.timer);
    lifetimes.delete(id);
    if (get().toasts.some((toast) => toast.id === id))
      set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
  };

  const start = (id: number, lifetime: Lifetime): void => {
    lifetime.startedAt = Date.now();
    lifetime.timer = setTimeout(() => dismiss(id), lifetime.remainingMs);
  };

  // A toast whose action no longer applies (the restore was undone, another folder is open) leaves at once.
  api.subscribe((state) => {
    if (applies.size === 0) return;
    for (const [id, holds] of [...applies]) if (!holds(state)) dismiss(id);
  });

  return {
    toasts: [],
    notify: (request) => {
      const id = nextId++;
      const toast: Toast = {
        id,
        tone: request.tone,
        title: request.title,
        lifetimeMs: toastLifetimeMs,
        detail: request.detail,
        ...(request.action === undefined
          ? {}
          : { action: { label: request.action.label, testId: request.action.testId } }),
      };
      if (request.action !== undefined) actions.set(id, request.action.run);
      set((state) => {
        const toasts = [...state.toasts, toast];
        for (const dropped of toasts.slice(0, Math.max(0, toasts.length - maxToasts))) dismiss(dropped.id);
        return { toasts: toasts.slice(-maxToasts) };
      });
      const lifetime: Lifetime = { timer: undefined, remainingMs: toastLifetimeMs, startedAt: 0 };
      lifetimes.set(id, lifetime);
      start(id, lifetime);
      if (request.appliesWhile !== undefined) applies.set(id, request.appliesWhile);
      return id;
    },
    runToastAction: (id) => {
      const run = actions.get(id);
      get().dismissToast(id);
      run?.();
    },
    dismissToast: dismiss,
    holdToast: (id, isHeld) => {
      const lifetime = lifetimes.get(id);
      if (lifetime === undefined) return;
      if (isHeld && lifetime.timer !== undefined) {
        clearTimeout(lifetime.timer);
        lifetime.timer = undefined;
        lifetime.remainingMs = Math.max(1000, lifetime.remainingMs - (Date.now() - lifetime.startedAt));
      } else if (!isHeld && lifetime.timer === undefined) start(id, lifetime);
    },
  };
};
