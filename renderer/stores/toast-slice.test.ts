import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand';
import { createToastSlice, toastLifetimeMs, type ToastSlice } from './toast-slice';

/** A store with the toast slice alone (typed for the whole store, stood up here by itself) and one field a toast's action depends on. */
function toastStore() {
  return createStore<ToastSlice & { undoable: string | undefined }>()((set, get, api) => ({
    undoable: undefined,
    ...createToastSlice(set as never, get as never, api as never),
  }));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  it('leave on their own after their lifetime, actions too; the clock stops while held', () => {
    const store = toastStore();
    const plain = store.getState().notify({ tone: 'success', title: 'Checkpoint taken' });
    store.getState().notify({ tone: 'error', title: 'No checkpoint taken' });
    store.getState().notify({
      tone: 'success',
      title: 'Restored',
      action: { label: 'Undo restore', testId: 'undo', run: () => undefined },
    });
    expect(store.getState().toasts.map((toast) => toast.lifetimeMs)).toEqual([
      toastLifetimeMs,
      toastLifetimeMs,
      toastLifetimeMs,
    ]);
    store.getState().holdToast(plain, true);
    vi.advanceTimersByTime(toastLifetimeMs + 1);
    expect(store.getState().toasts.map((toast) => toast.title)).toEqual(['Checkpoint taken']);
    store.getState().holdToast(plain, false);
    vi.advanceTimersByTime(toastLifetimeMs);
    expect(store.getState().toasts).toEqual([]);
  });

  it('leave at once when what they offer no longer applies', () => {
    const store = toastStore();
    store.setState({ undoable: 'restore-1' });
    const run = vi.fn();
    store.getState().notify({
      tone: 'success',
      title: 'Restored',
      action: { label: 'Undo restore', testId: 'undo', run },
      appliesWhile: (state) => (state as unknown as { undoable?: string }).undoable === 'restore-1',
    });
    store.getState().notify({ tone: 'info', title: 'Unrelated' });
    expect(store.getState().toasts).toHaveLength(2);
    store.setState({ undoable: 'restore-2' });
    expect(store.getState().toasts.map((toast) => toast.title)).toEqual(['Unrelated']);
    expect(run).not.toHaveBeenCalled();
  });
});
