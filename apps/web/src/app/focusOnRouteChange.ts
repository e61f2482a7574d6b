import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';

/** How long a new screen may take to show its heading (lazy chunk, data) before the move is given up. */
const WAIT_MS = 5000;

/**
 * Moves the keyboard focus to the new screen's heading (the first `h1` in `main`, made focusable with tabIndex -1)
 * and puts its name (the heading) in a polite live region, so a screen reader user hears where a navigation led
 * (login → home, upload → result, forgot password → login…). Not on the first load: the page is read from its start.
 */
export function focusHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return null;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  return heading;
}

/** Runs `then` once `main h1` exists (now or after the screen renders), within WAIT_MS. Returns a canceller. */
export function whenHeadingShows(then: () => void): () => void {
  if (document.querySelector('main h1')) {
    then();
    return () => undefined;
  }
  const main = document.querySelector('main') ?? document.body;
  const observer = new MutationObserver(() => {
    if (!document.querySelector('main h1')) return;
    stop();
    then();
  });
  const timer = window.setTimeout(() => stop(), WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(main, { childList: true, subtree: true });
  return stop;
}

/** The frame's route-change handling: returns the text of the live region. */
/**
 * The path the focus was last handled for, kept outside the component: the frame may mount more than once while the
 * app starts (fallback, then the routes), and only a real change of screen moves the focus.
 */
let handledPath: string | null = null;

export function useRouteFocus(): string {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const previous = handledPath;
    handledPath = pathname;
    // The first screen of a visit is read from its start; the same path again is no change of screen.
    if (previous === null || previous === pathname) return;
    let frame = 0;
    // Cleared first, so the same title reached again is announced again.
    setAnnouncement('');
    const cancel = whenHeadingShows(() => {
      const active = document.activeElement;
      // A field the new screen focused on purpose (autofocus) keeps the focus; anything else (body, the link or
      // button that led here, now gone or in the header) hands it to the heading.
      const keep = active instanceof HTMLElement && active !== document.body && !!active.closest('main') && active.matches('input, textarea, select');
      if (!keep) focusHeading();
      // The new screen's name: its heading (the document title repeats it with the brand, or is the brand alone).
      frame = window.requestAnimationFrame(() => setAnnouncement(document.querySelector('main h1')?.textContent?.trim() || document.title));
    });
    return () => {
      cancel();
      window.cancelAnimationFrame(frame);
    };
  }, [pathname]);

  return announcement;
}
