/**
 * A LIKE pattern matching `text` anywhere, with the user's own %, _ and \
 * taken literally (PostgreSQL's default escape character is the backslash).
 */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
