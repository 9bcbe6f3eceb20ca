import * as z from "zod";
import { SEARCH_MAX_CHARS } from "../search/views.ts";

/** GET /api/search?q=: the text typed in the staff bar (short ones give no results). */
export const searchQuerySchema = z.object({
  q: z.string().max(SEARCH_MAX_CHARS, `Search text must be at most ${SEARCH_MAX_CHARS} characters`)
    .optional().default(""),
});
