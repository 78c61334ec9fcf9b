/**
 * Gives the keyboard focus to the main list of the screen shown in `main` (the element marked
 * `data-main-list`): at once when it is there, else as soon as it appears (a screen still
 * loading). Returns the disposer, which stops waiting.
 */
export function focusMainList(main: HTMLElement): () => void {
  const tryFocus = (): boolean => {
    const list = main.querySelector<HTMLElement>('[data-main-list]');
    if (list === null) return false;
    list.focus({ preventScroll: false });
    return document.activeElement === list;
  };
  if (tryFocus()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (tryFocus()) observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true });
  return () => observer.disconnect();
}
