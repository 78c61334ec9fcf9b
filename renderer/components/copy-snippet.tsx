import { useEffect, useRef, useState } from 'react';

type CopyState = 'idle' | 'copied' | 'select';

/**
 * A snippet to paste somewhere else (a config entry, a command), with a Copy button. Where the
 * clipboard is not available, the text is selected so ctrl+C copies it.
 */
export function CopySnippet({
  text,
  label,
  testId,
}: {
  readonly text: string;
  readonly label: string;
  readonly testId?: string;
}) {
  const [state, setState] = useState<CopyState>('idle');
  const preRef = useRef<HTMLPreElement | null>(null);

  useEffect(() => {
    if (state !== 'copied') return undefined;
    const timer = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);

  function selectText(): void {
    const element = preRef.current;
    const range = document.createRange();
    if (element === null) return;
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }

  function copy(): void {
    // navigator.clipboard is missing outside secure contexts, whatever the DOM types say.
    const clipboard = (navigator as { readonly clipboard?: Clipboard }).clipboard;
    if (clipboard === undefined) {
      selectText();
      setState('select');
      return;
    }
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => {
        selectText();
        setState('select');
      },
    );
  }

  return (
    <figure className="copy-snippet" data-testid={testId} data-state={state}>
      <figcaption>
        <span>{label}</span>
        <button type="button" className="button button-small" onClick={copy} aria-label={`Copy: ${label}`}>
          {state === 'copied' ? 'Copied' : state === 'select' ? 'Press Ctrl+C' : 'Copy'}
        </button>
      </figcaption>
      <pre ref={preRef} tabIndex={0}>
        {text}
      </pre>
    </figure>
  );
}
