/**
 * happy-dom lays nothing out, so every element measures 0×0 and a virtual list would draw no rows.
 * This gives every element a client size for the duration of a test file; returns the undo.
 */
export function giveElementsLayout(size: { readonly width: number; readonly height: number }): () => void {
  const prototype = HTMLElement.prototype;
  const saved = ['clientWidth', 'clientHeight'].map(
    (name) => [name, Object.getOwnPropertyDescriptor(prototype, name)] as const,
  );
  Object.defineProperty(prototype, 'clientWidth', { configurable: true, get: () => size.width });
  Object.defineProperty(prototype, 'clientHeight', { configurable: true, get: () => size.height });
  return () => {
    for (const [name, descriptor] of saved) {
      if (descriptor === undefined) Reflect.deleteProperty(prototype, name);
      else Object.defineProperty(prototype, name, descriptor);
    }
  };
}
