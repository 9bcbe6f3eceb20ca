// `deno task dev`: rebuild the browser bundle when its sources changed, then
// start the server. `--watch` restarts this whole script on every edit.
import { buildAssets } from "../src/assets/build.ts";

await buildAssets({ quiet: true });
await import("../main.ts");
