import type { BrowserContext, Page } from 'playwright-core';

/**
 * What a screen reader would announce, counted: every change of content inside a live region (aria-live
 * other than off, or role alert / status / log) with some text, and every element with role="alert" inserted
 * into the page (an alert announces itself on insertion). Nested regions each count (a message inside two
 * regions is heard twice). Recorded from the page's start by a MutationObserver; `announcementsSince` answers
 * the regions heard since a mark, once each (a region updated twice in one event is one announcement).
 */
export async function countAnnouncements(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type Entry = { region: number; text: string; testId: string | null; at: number };
    const log: Entry[] = [];
    const ids = new WeakMap<Element, number>();
    let next = 0;
    const idOf = (el: Element) => {
      if (!ids.has(el)) ids.set(el, ++next);
      return ids.get(el)!;
    };
    const LIVE = '[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"], [role="log"]';
    const record = (region: Element) => {
      const text = (region.textContent ?? '').trim();
      if (text) log.push({ region: idOf(region), text, testId: region.getAttribute('data-testid'), at: performance.now() });
    };
    const regionsAround = (node: Node): Element[] => {
      const out: Element[] = [];
      for (let el: Element | null = node instanceof Element ? node : node.parentElement; el; el = el.parentElement) if (el.matches(LIVE)) out.push(el);
      return out;
    };
    const observer = new MutationObserver((mutations) => {
      const heard = new Set<Element>();
      for (const m of mutations) {
        const target = m.type === 'characterData' ? m.target : m.target;
        for (const r of regionsAround(target)) heard.add(r);
        if (m.type === 'childList') {
          for (const added of m.addedNodes) {
            if (!(added instanceof Element)) continue;
            if (added.matches('[role="alert"]')) heard.add(added);
            for (const inner of added.querySelectorAll('[role="alert"]')) heard.add(inner);
          }
        }
      }
      for (const r of heard) record(r);
    });
    const start = () => observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    if (document.documentElement) start();
    else document.addEventListener('DOMContentLoaded', start);
    (window as unknown as { __announcements: Entry[] }).__announcements = log;
  });
}

export interface Announcement {
  text: string;
  testId: string | null;
}

/** A mark to count from: the time now in the page. */
export function announcementMark(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/**
 * The regions heard since `mark`, one entry each (its last text), leaving out `ignore` (data-testids: the route
 * announcer speaks for a navigation, an event of its own).
 */
export async function announcementsSince(page: Page, mark: number, { ignore = ['route-announcer'] }: { ignore?: string[] } = {}): Promise<Announcement[]> {
  return page.evaluate(
    ({ mark, ignore }) => {
      const log = (window as unknown as { __announcements: { region: number; text: string; testId: string | null; at: number }[] }).__announcements;
      const byRegion = new Map<number, { text: string; testId: string | null }>();
      for (const e of log) if (e.at >= mark && !(e.testId && ignore.includes(e.testId))) byRegion.set(e.region, { text: e.text, testId: e.testId });
      return [...byRegion.values()];
    },
    { mark, ignore },
  );
}
