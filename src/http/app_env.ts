import type { DB } from "../db/database.ts";
import type { Config } from "../config/config.ts";
import type { Session, SessionUser } from "../auth/session.ts";
import type { PublicLimits } from "../auth/rate_counts.ts";
import type { Logger } from "./logger.ts";
import type { KioskSession } from "../kiosk/kiosk_session.ts";
import type { PdfPool } from "../pdf/pdf_pool.ts";

/** Everything a request handler can reach, set once by middleware. */
export interface AppEnv {
  Variables: {
    db: DB;
    config: Config;
    logger: Logger;
    /** The PDF renderer processes (see src/pdf/pdf_pool.ts). */
    pdf: PdfPool;
    publicLimits: PublicLimits;
    user: SessionUser | null;
    session: Session | null;
    /** Set instead of user and session while the browser is handed to a client. */
    kiosk: KioskSession | null;
    requestId: string;
    secureHeadersNonce?: string;
    clientIp: string;
    /** The time as the app sees it: tests inject a clock (orders' promised dates, undo windows). */
    clock: () => Date;
  };
}
