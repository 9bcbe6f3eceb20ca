/** The user's own %, _ and \ taken literally (PostgreSQL's default LIKE escape is the backslash). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A LIKE pattern matching `text` anywhere, wildcards in it taken literally. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/** A LIKE pattern matching values that start with `text`. */
export const startsWithPattern = (text: string) => `${escapeLike(text)}%`;
