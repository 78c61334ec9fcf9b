/**
 * Gives the keyboard focus to the main list of the screen shown in `main` (the element marked
 * `data-main-list`): at once when it is there, else as soon as it appears (a screen still
 * loading, an empty list that fills). Waiting stops when the user puts the focus somewhere
 * themselves. Returns the disposer, which stops waiting.
 */
export function focusMainList(main: HTMLElement): () => void {
  const tryFocus = (): boolean => {
    const list = main.querySelector<HTMLElement>('[data-main-list]');
    if (list === null) return false;
    list.focus();
    return document.activeElement === list;
  };
  if (tryFocus()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  const onFocusIn = (): void => stop();
  const stop = (): void => {
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn);
  };
  observer.observe(main, { childList: true, subtree: true });
  document.addEventListener('focusin', onFocusIn);
  return stop;
}
