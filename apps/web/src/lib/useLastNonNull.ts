import { useState } from 'react';

/**
 * The value, or while it is null the last value that was not: a modal keeps its title and content
 * through its closing transition instead of collapsing empty.
 */
export function useLastNonNull<T>(value: T | null): T | null {
  const [last, setLast] = useState(value);
  // Adjusting state while rendering (React's pattern for state derived from a prop): no extra effect pass.
  if (value !== null && value !== last) setLast(value);
  return value ?? last;
}
