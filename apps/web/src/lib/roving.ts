/**
 * Tab stop of a card in a radio group made of Mantine's Radio.Card (buttons with role="radio"): each card
 * is a button, so each would be a Tab stop of its own. A radio group is one Tab stop (the checked card, or
 * the first one while none is) and the arrow keys move within it (Radio.Card handles them), as native
 * radios do.
 */
export function radioTabIndex(value: string, selected: string | null | undefined, values: readonly string[]): 0 | -1 {
  const current = selected && values.includes(selected) ? selected : values[0];
  return value === current ? 0 : -1;
}
