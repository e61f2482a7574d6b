/**
 * A case-insensitive substring pattern for `LIKE` over a lower-cased column: the search text
 * lower-cased, its `\`, `%` and `_` escaped so they match themselves.
 */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
