import { useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { screenIds, type ScreenId } from '../model/route';
import { useAppStore } from '../stores/store-context';
import { focusMainList } from './focus-main-list';

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** What the app's keyboard and address handling gives the frame: the main element to focus in, and the help overlay. */
export interface AppShortcuts {
  readonly mainRef: RefObject<HTMLElement | null>;
  readonly isHelpOpen: boolean;
  readonly setHelpOpen: Dispatch<SetStateAction<boolean>>;
}

/** Alt+1…4 shows a screen and focuses its main list, `?` toggles the shortcuts help, and the address is followed. */
export function useAppShortcuts(screen: ScreenId): AppShortcuts {
  const showScreen = useAppStore((state) => state.showScreen);
  const followAddress = useAppStore((state) => state.followAddress);
  const [isHelpOpen, setHelpOpen] = useState(false);
  // Alt+1…4 asks for the screen's main list to get the focus once it is drawn.
  const [focusRequest, setFocusRequest] = useState(0);
  const mainRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const main = mainRef.current;
    if (focusRequest === 0 || main === null) return undefined;
    return focusMainList(main);
  }, [focusRequest, screen]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return;
      if (event.altKey && !event.ctrlKey && !event.metaKey) {
        const target = screenIds[Number(event.key) - 1];
        if (target === undefined) return;
        event.preventDefault();
        showScreen(target);
        setFocusRequest((count) => count + 1);
        return;
      }
      if (event.key === '?' && !isTyping(event.target)) {
        event.preventDefault();
        setHelpOpen((open) => !open);
      }
    };
    window.addEventListener('hashchange', followAddress);
    window.addEventListener('popstate', followAddress);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('hashchange', followAddress);
      window.removeEventListener('popstate', followAddress);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [showScreen, followAddress]);

  return { mainRef, isHelpOpen, setHelpOpen };
}
