import type { StateCreator } from 'zustand';
import type { Toast } from '../model/toast';
import type { AppState } from './app-store';

/** How long a toast without an action stays. */
const toastLifetimeMs = 6000;
/** At most this many toasts show; the oldest go first. */
const maxToasts = 4;

/** What a caller asks to show; the slice assigns the id and decides stickiness. */
export interface ToastRequest {
  readonly tone: Toast['tone'];
  readonly title: string;
  readonly detail?: string;
  readonly action?: { readonly label: string; readonly testId: string; readonly run: () => void };
}

/** Toasts: short news of what just happened, some with a follow-up ("Undo restore"). */
export interface ToastSlice {
  readonly toasts: readonly Toast[];
  readonly notify: (request: ToastRequest) => number;
  readonly runToastAction: (id: number) => void;
  readonly dismissToast: (id: number) => void;
}

/** The toast slice. */
export const createToastSlice: StateCreator<AppState, [], [], ToastSlice> = (set, get) => {
  let nextId = 1;
  const actions = new Map<number, () => void>();
  const dismiss = (id: number): void => {
    actions.delete(id);
    set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
  };
  return {
    toasts: [],
    notify: (request) => {
      const id = nextId++;
      const isSticky = request.action !== undefined || request.tone === 'error';
      const toast: Toast = {
        id,
        tone: request.tone,
        title: request.title,
        isSticky,
        ...(request.detail === undefined ? {} : { detail: request.detail }),
        ...(request.action === undefined ? {} : { action: { label: request.action.label, testId: request.action.testId } }),
      };
      if (request.action !== undefined) actions.set(id, request.action.run);
      set((state) => {
        const toasts = [...state.toasts, toast];
        for (const dropped of toasts.slice(0, Math.max(0, toasts.length - maxToasts))) actions.delete(dropped.id);
        return { toasts: toasts.slice(-maxToasts) };
      });
      if (!isSticky && typeof window !== 'undefined') window.setTimeout(() => dismiss(id), toastLifetimeMs);
      return id;
    },
    runToastAction: (id) => {
      const run = actions.get(id);
      get().dismissToast(id);
      run?.();
    },
    dismissToast: dismiss,
  };
};
