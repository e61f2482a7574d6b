import { useLayoutEffect, type RefObject } from 'react';

/**
 * Ties a Mantine input to a message rendered outside its wrapper (a message shared by two fields). Mantine sets
 * the input's aria-describedby from its own wrapper (its description, its error when the error is a text) over
 * any aria-describedby given as a prop, so a field marked with `error` (a boolean) was invalid but described by
 * nothing. The attribute is written on the element once rendered; Mantine's value never changes, so it stays.
 */
export function useDescribedBy(ref: RefObject<HTMLElement | null>, id: string | undefined): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (id) el.setAttribute('aria-describedby', id);
    else el.removeAttribute('aria-describedby');
  });
}
