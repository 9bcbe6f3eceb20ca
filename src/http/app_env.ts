import type { DB } from "../db/database.ts";
import type { Config } from "../config/config.ts";
import type { Session, SessionUser } from "../auth/session.ts";
import type { LoginThrottle, PublicLimits } from "../auth/throttle.ts";
import type { Logger } from "./logger.ts";

/** Everything a request handler can reach, set once by middleware. */
export interface AppEnv {
  Variables: {
    db: DB;
    config: Config;
    logger: Logger;
    loginThrottle: LoginThrottle;
    publicLimits: PublicLimits;
    user: SessionUser | null;
    session: Session | null;
    requestId: string;
    secureHeadersNonce?: string;
    clientIp: string;
  };
}
